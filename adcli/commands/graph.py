"""adcli graph: the computation graph the engine differentiated, as Graphviz DOT or a tree.

It is the graph of ``adcli trace``, with the same step numbers: variables are shared leaves
(one node, an edge to every use: their adjoint is the sum over those edges), while a
repeated sub-expression such as ``sin(x) + sin(x)`` is two nodes, because the parser builds
and the engine computes one node per occurrence. Merging them here would draw a node whose
adjoint the engine never computed.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from .. import tracing
from ..errors import AdcliError, ValuesError, escape, listing, terminal_width
from .base import Command
from ..render import pair_text
from ..report import Report
from ..streams import is_number
from .trace import (MARK, adds_up, approximate_note, cells, grad_at, kept, nonfinite_messages,
                    number_text, points, report_nonfinite, warn_kinks, where)

if TYPE_CHECKING:
    from pathlib import Path  # imported where used: pathlib, shutil, subprocess and
                              # secrets cost ~15 ms of every start, and few runs render

RENDERED = {".svg": "svg", ".png": "png", ".pdf": "pdf"}   # -o suffix: Graphviz -T format
TEXT = (".dot", ".gv")
TREE_DEPTH = 60  # deeper levels are summarised: a terminal is too narrow for them
# The tree's guides, by how many columns a level takes: (branch, last branch, a level
# with more below, a level without). Deep trees on narrow terminals take 2.
GUIDES = {4: ("├── ", "└── ", "│   ", "    "), 2: ("├ ", "└ ", "│ ", "  ")}


class Graph(Command):
    name = "graph"
    summary = "The computation graph of EXPRESSION."
    help = ("The computation graph of EXPRESSION as Graphviz DOT text (or a tree, --format "
            "tree); with --at, every node's value and adjoint.")
    examples = ('adcli graph "x*y + sin(x)" --format tree',
                'adcli graph "x*y + sin(x)" --at x=1,y=2')
    differentiates = False
    formats = ("dot", "tree")
    own_output = True
    values_optional = True
    # How the shared options (cli.points_options) read here: one point is drawn.
    shared_options = {
        "--grid": dict(help="A grid of one point: graph draws one, so NAME=VALUE:VALUE:1 "
                            "(as --at NAME=VALUE) is taken, and a grid of more points is "
                            "an error."),
        "--points": dict(help="A point in a file, one row with a header of names ('-' for "
                              "stdin): CSV, TSV, whitespace-separated or JSON Lines. graph "
                              "draws one point: a file of more rows is an error."),
    }
    options = (click.option("-o", "--output", "output_file", metavar="FILE",
                            help="Write FILE instead of stdout: .dot or .gv as DOT text; "
                            ".svg, .png or .pdf drawn by Graphviz's dot program."),)

    def write(self, source, out, err, fmt, digits, strict):
        target = self.options.get("output_file")
        renderer = self.check_target(target, fmt)
        (trace, extra), has_values = self.trace(source), self.has_values(source)
        said = grad_at(trace.expression, trace.point, trace.expression.variables).diagnostics \
            if has_values else None
        messages = nonfinite_messages(trace, said) if has_values else []
        if fmt == "tree":
            draw_tree(trace, out, digits, has_values)
        else:
            lines = dot_lines(trace, digits, has_values, extra)
            if target is None:
                for line in lines:
                    out.write(line + "\n")
            else:
                from pathlib import Path

                save(lines, Path(target), renderer)
        report_nonfinite(messages, strict, err)
        if has_values:
            # grad's warnings, as trace gives them: no kink where f is differentiable all
            # the same (abs(x)^3 at 0), which the steps' own kinks (trace.diagnostics) say
            kinks = Report()
            kinks.add(kept(said), 1)
            warn_kinks(kinks, err)

    def has_values(self, source) -> bool:
        return bool(source.names()) or not self.names

    def check_target(self, target: str | None, fmt: str) -> str | None:
        """Before any work: the -o suffix, and the dot program it needs. Returns the path
        of dot when the file is to be rendered."""
        if target is None:
            return None
        if fmt == "tree":
            raise ValuesError("--format tree is drawn in the terminal; -o writes DOT text "
                              "or a Graphviz rendering")
        from pathlib import Path

        suffix = Path(target).suffix.lower()
        if suffix in TEXT:
            return None
        if suffix not in RENDERED:
            raise ValuesError(f"-o {target!r}: give a file ending in .svg, .png, .pdf "
                              "(drawn by Graphviz) or .dot/.gv (DOT text)")
        import shutil  # here, not at start-up: most runs never render

        dot = shutil.which("dot")
        if dot is None:
            raise AdcliError(f"-o {target!r} needs Graphviz's dot program, which is not "
                             "installed: install Graphviz (https://graphviz.org/download/, "
                             "e.g. apt-get install graphviz or brew install graphviz), or "
                             "write DOT text with -o file.dot")
        return dot

    def trace(self, source) -> tuple[tracing.Trace, dict]:
        """The reverse trace at the one point given, or the bare structure without one,
        and the point's other columns in its points file (an id), which say which row it is."""
        expression = self.expressions[0]
        if not self.has_values(source):
            return tracing.structure(expression), {}
        found = []
        for row in points(source, expression):
            found.append(row)
            if len(found) > 1:
                raise ValuesError("graph labels one point: give the values with --at "
                                  "(--grid and --points give several)")
        if not found:
            raise ValuesError("graph labels one point and the points file has none")
        point, extra = found[0]
        return tracing.reverse(expression, point), extra


# ----- DOT -----------------------------------------------------------------------------

def quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def attributes(**attrs) -> str:
    return "[" + ", ".join(f"{k}={quoted(str(v))}" for k, v in attrs.items()) + "]"


CONVENTION = "convention"   # what a step on a kink hands back (abs' at 0)
KINK_COLOUR = "#c05a00"


def dot_lines(trace: tracing.Trace, digits=None, has_values=True, extra=None):
    """The graph as DOT, a line at a time: inputs as ellipses, operations as boxes,
    numbers and constants as plain text; edges point the way values flow, and with
    values each edge is labelled with the adjoint it hands back. ``extra``: the point's
    other columns in its points file (id=q1), named before it as trace names them."""
    def num(value):
        return number_text(value, digits)

    yield "digraph adcli {"
    caption = f"read as: {_caption(trace.expression.parsed)}"
    marked = conventions(trace) if has_values else set()
    if has_values:
        pairs = [f"{name}={escape(pair_text(cell))}" for name, cell in (extra or {}).items()]
        pairs += [where(trace.point)] if trace.point else []
        caption += f"\nat {', '.join(pairs)}" if pairs else ""
        caption += "\nnode: step, value, adjoint; edge: the adjoint it hands back"
        if marked:
            caption += f" (dashed: a {CONVENTION}, at a kink)"
    settings = attributes(rankdir="LR", labelloc="b", fontname="Helvetica", fontsize=10,
                          label=caption)
    yield f"  graph {settings};"
    yield '  node [fontname="Helvetica", fontsize=11];'
    yield '  edge [fontname="Helvetica", fontsize=9, color="#555555"];'
    handed = {(c.source.number, c.index): c.value
              for step in trace.steps for c in step.contributions}
    literals = 0
    bad = first_nonfinite(trace, has_values)
    for step in trace.steps:
        label = f"{step.id} = {step.text()}"
        if has_values:
            label += f"\n= {value_text(step, digits)}{mark(step, bad, 'value')}"
            if step.adjoint is not None:
                label += f"\n{step.adjoint_id} = {num(step.adjoint)}{mark(step, bad, 'adjoint')}"
        style = {"input": dict(shape="ellipse", style="filled", fillcolor="#dbe8fb"),
                 "operation": dict(shape="box", style="rounded"),
                 "constant": dict(shape="plaintext")}[step.kind]
        if step is trace.output:
            style["penwidth"] = 2
        if step in bad.values():  # the step the warning names: outlined in red
            style.update(color="red", fontcolor="red")
        elif any(n == step.number for n, _ in marked):
            style.update(color=KINK_COLOUR)
        yield f"  {step.id} {attributes(label=label, **style)};"
        for index, operand in enumerate(step.operands):
            if isinstance(operand, tracing.Literal):
                literals += 1
                tail = f"c{literals}"
                constant = attributes(label=operand.text, shape="plaintext",
                                      fontcolor="#555555")
                yield f"  {tail} {constant};"
            else:
                tail = operand.id
            edge = {}
            if has_values and (step.number, index) in handed:
                edge["label"] = num(handed[step.number, index])
                if (step.number, index) in marked:
                    edge.update(label=f"{edge['label']} ({CONVENTION})", style="dashed",
                                color=KINK_COLOUR, fontcolor=KINK_COLOUR)
            yield f"  {tail} -> {step.id}{' ' + attributes(**edge) if edge else ''};"
    yield "}"


def conventions(trace: tracing.Trace) -> set:
    """The edges (the user's number, input index) along which a step on a kink hands back
    a convention (abs at 0), not a slope: an inf or nan too (sqrt's at 0, acos's at 1),
    as trace's rows say; drawn plain, it would read as an infinite slope, which f does
    not have there."""
    return {(c.source.number, c.index) for step in trace.steps for c in step.contributions
            if on_kink(c.source)}


def on_kink(step) -> bool:
    """Whether an operation sits on a kink of its function (abs at 0, sqrt at 0, log at
    -1): what it hands its inputs is a convention, no derivative, as trace's rows say."""
    return step.kind == "operation" and step.kink


def first_nonfinite(trace: tracing.Trace, has_values: bool) -> dict:
    """The steps the non-finite warning names, to be marked as trace marks them."""
    if not has_values:
        return {}
    found = {"value": trace.first_nonfinite_value(), "adjoint": trace.first_nonfinite_adjoint()}
    return {k: s for k, s in found.items() if s is not None}


def mark(step, bad: dict, what: str) -> str:
    if bad.get(what) is not step:
        return ""
    return f"  {MARK} {number_text(getattr(step, what))}"


def value_text(step, digits) -> str:
    """A step's value: an input's is a coordinate of the point, never rounded."""
    return number_text(step.value, None if step.kind == "input" else digits)


def save(lines, target: Path, dot: str | None) -> None:
    """Write the DOT text or dot's rendering next to ``target``, then move it into place:
    a failure leaves no half-written file. Through a symbolic link, as plot -o writes
    (the link stays, its file is replaced); into a device or a pipe, directly."""
    import secrets

    if target.is_symlink() or target.exists():
        real = type(target)(os.path.realpath(target))
        if real.exists() and not real.is_file():    # /dev/full, a pipe: nothing to replace
            _write_into(lines, real, target, dot)
            return
        target = real
    temporary = target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}")
    try:
        # O_EXCL: never follow someone else's file; mode 0o666 so the umask decides, as
        # for any file the user writes.
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as error:
        raise AdcliError(f"cannot write {str(target)!r}: {error.strerror}") from None
    try:
        if dot is None:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                for line in lines:
                    file.write(line + "\n")
        else:
            os.close(handle)
            run_dot(dot, lines, RENDERED[target.suffix.lower()], str(temporary))
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _write_into(lines, real: Path, given: Path, dot: str | None) -> None:
    try:
        if dot is None:
            with open(real, "w", encoding="utf-8") as file:
                for line in lines:
                    file.write(line + "\n")
        else:
            run_dot(dot, lines, RENDERED[given.suffix.lower()], str(real))
    except OSError as error:
        raise AdcliError(f"cannot write {str(given)!r}: {error.strerror}") from None


def run_dot(dot: str, lines, kind: str, path: str) -> None:
    import subprocess

    text = "".join(line + "\n" for line in lines).encode("utf-8")
    try:
        done = subprocess.run([dot, f"-T{kind}", "-o", path], input=text, capture_output=True,
                              check=False)
    except OSError as error:
        raise AdcliError(f"cannot run Graphviz's dot ({dot}): {error.strerror}") from None
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise AdcliError(f"Graphviz's dot could not draw {kind}: "
                         f"{reason[0] if reason else f'exit status {done.returncode}'}")


def _caption(text: str, limit: int = 120) -> str:
    """A reading fit for one line under a drawing: a longer one as its head and tail, cut
    between tokens, and its length (DOT has no other output to give it whole)."""
    if len(text) <= limit:
        return text
    from ..tables import ends

    head, tail = ends(text, limit // 2)
    return f"{head} … {tail} ({len(text):,} characters)"


# ----- the terminal tree ---------------------------------------------------------------

def draw_tree(trace: tracing.Trace, out, digits=None, has_values=True) -> None:
    """The expression as a tree, the output at the root; a variable appears under every
    use (a tree cannot share), numbered as in the trace. A variable used more than once
    shows at each use what that use hands back (v̄1 += ...) and its sum under the tree.
    On a terminal a label is folded between words, never inside a number: levels take 2
    columns where 4 would not leave each part of a label whole, and a level whose
    indentation leaves no room even for its words is left out."""
    from ..tables import rich_console

    width = terminal_width(out)
    labels = TreeLabels(trace, digits, has_values)
    rows = [(lasts, labels.label(operand, edge, again))
            for operand, edge, lasts, again in tree_rows(trace)]
    unit = 4 if width is None or all(room(width, 4, lasts) >= widest(label)
                                     for lasts, label in rows) else 2
    console = rich_console(out, width if out.isatty() else 10_000, soft_wrap=True)
    for line in tree_lines(rows, unit, width):
        console.print(line)
    for line in labels.sums(width):
        console.print(line)


def tree_rows(trace: tracing.Trace):
    """(operand, edge, lasts, again) in drawing order: the edge (user's number, input
    index) it hangs from, for each level down to it whether it is the last of its
    siblings, and whether it is a step drawn before (a --let step used again: its inputs
    are drawn once, at its first use, or their shares would show twice, and a chain of
    --let doublings would grow as 2^n). No recursion: expressions may be 100,000 levels
    deep. None: the levels cut off."""
    stack, drawn = [(trace.output, None, ())], set()
    while stack:
        operand, edge, lasts = stack.pop()
        again = isinstance(operand, tracing.Step) and operand.kind == "operation" and \
            operand.number in drawn
        yield operand, edge, lasts, again
        operands = () if again else getattr(operand, "operands", ())
        if operands:
            drawn.add(operand.number)
        if operands and len(lasts) + 1 >= TREE_DEPTH:
            stack.append((None, None, lasts + (True,)))
            continue
        stack.extend((o, (operand.number, k), lasts + (k == len(operands) - 1,))
                     for k, o in reversed(list(enumerate(operands))))


def room(width: int, unit: int, lasts: tuple) -> int:
    """Columns left for a label's folded lines: they start 2 right of its first line."""
    return width - unit * len(lasts) - 2


def widest(label: list) -> int:
    """The widest part of a label that is best not broken: "= 0.5", "v̄1 = 2.0"."""
    return max((cells("".join(t for t, _ in phrase).strip()) for phrase in phrases(label)),
               default=0)


def fits(label: list, room: int) -> bool:
    """Whether a label can be folded into ``room`` columns: each part whole, or else
    between its words (units), the words after the first 2 columns in."""
    for phrase in phrases(label):
        if cells("".join(t for t, _ in phrase).strip()) <= room:
            continue
        first, *rest = [used(unit) for unit in units(phrase, room)] or [0]
        if max([first, *(2 + n for n in rest)]) > room:
            return False
    return True


def units(phrase: list, width: int | None = None) -> list[list]:
    """A phrase's words, as (word, style) lists, an "=" or "+=" with the word after it:
    a folded line starts "+= 0.5", as trace's go on with "= ..." (a number alone on a
    line, its "=" on the line above, is hard to read). Where a name and its "=" are wider
    than a folded line (``width`` less 2), the "=" ends the line above: a long name on a
    line of its own beats a node left out for depth."""
    found: list[list] = []
    glue = False
    for text, style in phrase:
        for word in text.split():
            if glue and len(found) > 1 and width is not None and not is_number(word) \
                    and 2 + used(found[-1]) + 1 + cells(word) > width:
                [(equals, equals_style)] = found.pop()
                found[-1].append((f" {equals}", equals_style))
                glue = False
            if glue:
                found[-1].append((f" {word}", style))
            else:
                found.append([(word, style)])
            glue = word in ("=", "+=")
    return found


def tree_lines(rows, unit: int, width: int | None):
    """Each row as rich Text lines: guides, then the label, folded if the terminal is
    narrower; a row with a part too wide to fit is left out, and the rows under it."""
    from rich.text import Text

    branch, last, more, none = GUIDES[unit]
    cut_below = None
    for lasts, label in rows:
        if cut_below is not None and len(lasts) > cut_below:
            continue
        cut_below = None
        above = "".join(none if done else more for done in lasts[:-1])
        prefix = above + ((last if lasts[-1] else branch) if lasts else "")
        under = above + ((none if lasts[-1] else more) if lasts else "") + "  "
        if width and not fits(label, room(width, unit, lasts)):
            cut_below = len(lasts)
            # (at the root's indentation too, a name of 40 letters: it is no matter of depth)
            why = "too deep for" if fits(label, room(width, unit, ())) else "too wide at"
            label = in_words(f"⋯ {why} this terminal's width: the DOT output (without "
                             "--format tree) has all of it")
        for k, pieces in enumerate(folded_label(label, width and width - cells(under))):
            line = Text(prefix if k == 0 else under)
            for text, style in pieces:
                line.append(text, style=style)
            yield line


def folded_label(label: list, width: int | None) -> list[list]:
    """A label's (text, style) pieces as lines of at most ``width`` columns. It breaks
    before a piece that starts with a space (" = value", "   v̄1 = ..."), so a number
    stays with its name, and inside a piece only between its words (``units``) where the
    piece alone is wider than a line, the words after the first 2 columns in ("v̄2", then
    "+= 0.5"); a word wider than a line stays whole."""
    if not width or cells("".join(text for text, _ in label)) <= width:
        return [label]
    lines, line = [], []
    for phrase in phrases(label):
        text = "".join(t for t, _ in phrase)
        if line and used(line) + cells(text) <= width:
            line.extend(phrase)
            continue
        if line:
            lines.append(line)
        line = [(text.lstrip(), style) for (text, style) in phrase[:1]] + phrase[1:]
        if used(line) > width:  # too wide alone: between its words
            line, fresh = [], True
            for unit in units(phrase, width):
                if not fresh and used(line) + 1 + used(unit) > width:
                    lines.append(line)
                    line, fresh = [("  ", "")], True
                line += ([] if fresh else [(" ", "")]) + unit
                fresh = False
    return lines + [line]


def in_words(text: str, style: str = "dim") -> list[tuple[str, str]]:
    """A message as a label that may break between any of its words."""
    return [(word if k == 0 else f" {word}", style) for k, word in enumerate(text.split())]


def phrases(label: list) -> list[list]:
    """The pieces grouped where a line may break: before a piece starting with a space."""
    groups: list[list] = []
    for text, style in label:
        if groups and not text[:1].isspace():
            groups[-1].append((text, style))
        else:
            groups.append([(text, style)])
    return groups


def used(line: list) -> int:
    return cells("".join(text for text, _ in line))


class TreeLabels:
    """The label of each node of the tree: step, formula, value, and the adjoint, or for a
    variable used several times what this use hands back."""

    def __init__(self, trace: tracing.Trace, digits, has_values: bool):
        self.trace, self.digits, self.has_values = trace, digits, has_values
        self.bad = first_nonfinite(trace, has_values)
        self.handed = {(c.source.number, c.index): c.value
                       for step in trace.steps for c in step.contributions}
        self.conventions = conventions(trace) if has_values else set()
        uses: dict = {}
        for step in trace.steps:
            for operand in step.operands:
                uses[operand] = uses.get(operand, 0) + 1
        self.shared = [s for s in trace.steps if uses.get(s, 0) > 1 and s.adjoint is not None
                       and has_values]

    def num(self, value: float) -> str:
        return number_text(value, self.digits)

    def label(self, operand, edge, again=False) -> list[tuple[str, str]]:
        if operand is None:
            return in_words(f"⋯ deeper levels left out (the tree is drawn {TREE_DEPTH} "
                            "levels deep; the DOT output has all of it)")
        if isinstance(operand, tracing.Literal):
            return [(operand.text, "dim")]
        pieces = [(f"{operand.id} = ", "dim"),
                  (operand.text(), "bold cyan" if operand.kind == "input" else "bold")]
        if self.has_values:
            pieces.append((f" = {value_text(operand, self.digits)}"
                           f"{mark(operand, self.bad, 'value')}", ""))
            adjoint = self.adjoint(operand, edge)
            pieces += [(f"   {adjoint}", "green")] if adjoint else []
            if any(n == getattr(operand, "number", None) for n, _ in self.conventions):
                pieces.append((f"   (on a kink: hands back a {CONVENTION})", "dim"))
        return pieces + ([("   (its inputs drawn above)", "dim")] if again else [])

    def adjoint(self, step, edge) -> str | None:
        if step.adjoint is None:
            return None
        if step in self.shared and edge is not None:  # one use of several: its share
            if edge not in self.handed:
                return f"{step.adjoint_id} += nothing (this use hands none back)"
            return f"{step.adjoint_id} += {self.num(self.handed[edge])}"
        return f"{step.adjoint_id} = {self.num(step.adjoint)}{mark(step, self.bad, 'adjoint')}"

    def sums(self, width: int | None):
        """Under the tree: each shared variable's (or --let step's) adjoint, the sum of its
        uses' shares in the order the engine adds them, "≈" where the shares as rounded
        (--digits) do not add up to it."""
        from rich.text import Text

        if not self.shared:
            return
        yield Text("")
        for line in folded_label(in_words(self.title(), ""), width):
            yield Text("".join(text for text, _ in line))
        approximate = False
        for step in self.shared:
            terms = [self.num(c.value) for c in step.contributions]
            label = [(f"{step.adjoint_id} =", "green")]
            label += [(f" {t}" if not k else f" - {t[1:]}" if t.startswith("-") else f" + {t}",
                       "green") for k, t in enumerate(terms)]
            sign = "=" if adds_up(terms, self.num(step.adjoint), self.digits) else "≈"
            approximate |= sign == "≈"
            total = (f"{f' {sign}' if terms else ''} {self.num(step.adjoint)}"
                     f"{mark(step, self.bad, 'adjoint')}", "green")
            lines = folded_label(label + [total], width and width - 4)
            if len(lines) > 1:  # folded: the total on a line of its own, not after a term
                lines = folded_label(label, width and width - 4) + [[(total[0][1:], "green")]]
            for k, line in enumerate(lines):
                yield Text("  " if k == 0 else "    ").append_text(
                    Text.assemble(*[(text, style) for text, style in line]))
        if approximate:
            for k, line in enumerate(folded_label(in_words(approximate_note(self.digits), ""),
                                                  width and width - 4)):
                yield Text(("  " if k == 0 else "    ") + "".join(t for t, _ in line))

    def title(self) -> str:
        """What the sums under the tree add up: a variable's uses, or those of the step a
        --let name stands for (F = sin(x): one step, used wherever F is)."""
        names = self.trace.expression.names
        steps = [s for s in self.shared if s.kind == "operation"]
        lets = [f"{names[s.node_index]} is {s.id}" for s in steps if s.node_index in names]
        kinds = ["variable"] * any(s.kind == "input" for s in self.shared) + \
            ["--let name"] * bool(lets)
        what = " or ".join(kinds) if len(lets) == len(steps) else "step"
        named = f" ({listing(lets)})" if lets else ""
        return f"each {what} used more than once{named} adds up what its uses hand back " \
            "(+= above):"
