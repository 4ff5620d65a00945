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
from ..errors import AdcliError, ValuesError
from .base import Command
from ..report import Report
from .trace import (nonfinite_messages, number_text, points, report_nonfinite, shortened,
                    warn_kinks)

if TYPE_CHECKING:
    from pathlib import Path  # imported where used: pathlib, shutil, subprocess and
                              # secrets cost ~15 ms of every start, and few runs render

RENDERED = {".svg": "svg", ".png": "png", ".pdf": "pdf"}   # -o suffix: Graphviz -T format
TEXT = (".dot", ".gv")
TREE_DEPTH = 60  # deeper levels are summarised: a terminal is too narrow for them


class Graph(Command):
    name = "graph"
    help = ("The computation graph of EXPRESSION as Graphviz DOT text (or a tree, --format "
            "tree); with --at, every node's value and adjoint.")
    examples = ('adcli graph "x*y + sin(x)" --format tree',
                'adcli graph "x*y + sin(x)" --at x=1,y=2')
    differentiates = False
    formats = ("dot", "tree")
    own_output = True
    values_optional = True
    options = (click.option("-o", "--output", "output_file", metavar="FILE",
                            help="Write FILE instead of stdout: .dot or .gv as DOT text; "
                            ".svg, .png or .pdf drawn by Graphviz's dot program."),)

    def write(self, source, out, err, fmt, digits, strict):
        target = self.options.get("output_file")
        renderer = self.check_target(target, fmt)
        trace, has_values = self.trace(source), self.has_values(source)
        messages = nonfinite_messages(trace, digits) if has_values else []
        if fmt == "tree":
            draw_tree(trace, out, digits, has_values)
        else:
            lines = dot_lines(trace, digits, has_values)
            if target is None:
                for line in lines:
                    out.write(line + "\n")
            else:
                from pathlib import Path

                save(lines, Path(target), renderer)
        report_nonfinite(messages, strict, err)
        if has_values:
            kinks = Report()
            kinks.add(trace.diagnostics, 1, [])
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

    def trace(self, source) -> tracing.Trace:
        """The reverse trace at the one point given, or the bare structure without one."""
        expression = self.expressions[0]
        if not self.has_values(source):
            return tracing.structure(expression)
        found = []
        for point, _ in points(source, expression):
            found.append(point)
            if len(found) > 1:
                raise ValuesError("graph labels one point: give the values with --at "
                                  "(--grid and --points give several)")
        if not found:
            raise ValuesError("graph labels one point and the points file has none")
        return tracing.reverse(expression, found[0])


# ----- DOT -----------------------------------------------------------------------------

def quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def attributes(**attrs) -> str:
    return "[" + ", ".join(f"{k}={quoted(str(v))}" for k, v in attrs.items()) + "]"


def dot_lines(trace: tracing.Trace, digits=None, has_values=True):
    """The graph as DOT, a line at a time: inputs as ellipses, operations as boxes,
    numbers and constants as plain text; edges point the way values flow, and with
    values each edge is labelled with the adjoint it hands back."""
    def num(value):
        return number_text(value, digits)

    yield "digraph adcli {"
    caption = f"read as: {shortened(trace.expression.parsed, 120)}"
    if has_values:
        caption += (f"\nat {', '.join(f'{n}={num(v)}' for n, v in trace.point.items())}"
                    if trace.point else "")
        caption += "\nnode: step, value, adjoint; edge: the adjoint it hands back"
    settings = attributes(rankdir="LR", labelloc="b", fontname="Helvetica", fontsize=10,
                          label=caption)
    yield f"  graph {settings};"
    yield '  node [fontname="Helvetica", fontsize=11];'
    yield '  edge [fontname="Helvetica", fontsize=9, color="#555555"];'
    handed = {(c.source.number, c.index): c.value
              for step in trace.steps for c in step.contributions}
    literals = 0
    for step in trace.steps:
        label = f"{step.id} = {step.text()}"
        if has_values:
            label += f"\n= {num(step.value)}"
            if step.adjoint is not None:
                label += f"\n{step.adjoint_id} = {num(step.adjoint)}"
        style = {"input": dict(shape="ellipse", style="filled", fillcolor="#dbe8fb"),
                 "operation": dict(shape="box", style="rounded"),
                 "constant": dict(shape="plaintext")}[step.kind]
        if step is trace.output:
            style["penwidth"] = 2
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
            yield f"  {tail} -> {step.id}{' ' + attributes(**edge) if edge else ''};"
    yield "}"


def save(lines, target: Path, dot: str | None) -> None:
    """Write the DOT text or dot's rendering next to ``target``, then move it into place:
    a failure leaves no half-written file."""
    import secrets

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


# ----- the terminal tree ---------------------------------------------------------------

def draw_tree(trace: tracing.Trace, out, digits=None, has_values=True) -> None:
    """The expression as a rich tree, the output at the root; a variable appears under
    every use (a tree cannot share), numbered as in the trace."""
    from rich.console import Console
    from rich.text import Text
    from rich.tree import Tree

    def label(operand) -> Text:
        if isinstance(operand, tracing.Literal):
            return Text(operand.text, style="dim")
        text = Text(f"{operand.id} = ", style="dim")
        text.append(operand.text(), style="bold cyan" if operand.kind == "input" else "bold")
        if has_values:
            text.append(f"  = {number_text(operand.value, digits)}")
            if operand.adjoint is not None:
                text.append(f"   {operand.adjoint_id} = {number_text(operand.adjoint, digits)}",
                            style="green")
        return text

    root = Tree(label(trace.output))
    stack = [(trace.output, root, 1)]
    while stack:  # no recursion: expressions may be 100,000 levels deep
        step, branch, depth = stack.pop()
        operands = getattr(step, "operands", ())
        if operands and depth >= TREE_DEPTH:
            branch.add(Text(f"⋯ deeper levels left out (the tree is drawn {TREE_DEPTH} "
                            "levels deep; the DOT output has all of it)", style="dim"))
            continue
        children = [(operand, branch.add(label(operand))) for operand in operands]
        stack.extend((operand, child, depth + 1) for operand, child in reversed(children))
    console = Console(file=out, highlight=False, soft_wrap=False,
                      width=None if out.isatty() else 10_000)
    console.print(root)
