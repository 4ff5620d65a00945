"""What the engine did at one point, step by step: the trace tables of the AD literature.

Inputs are v1..vk (the variables in order of first appearance), then every operation in
evaluation order. The reverse trace gives each step's value and adjoint v̄i, and every
contribution a step received from the operations that use it (their sum is its adjoint);
the forward trace gives each step's tangent v̇i along one variable.

The numbers are the engine's own: the graph is recorded by the same Functions
``Expression`` uses, a step's adjoint is its ``grad`` after one backward pass, and each
contribution is caught as the engine hands it over (``backward(watch=...)``); the tangents
come from Taylor mode's ``jvp``. The rule written beside a number ("v̄3·cos(v1)") is the
primitive's own ``backward`` run once more on Variables named v1, v̄3, ..., and printed:
each function's derivative is still defined in one place. A helper the engine runs inside
a rule (pow's b·a^(b-1) with b - 1 taken exactly, tanh's sech²) prints in the language,
so the text is the mathematical rule: where, worked out as written in float64, it does not
give the engine's number bit for bit, the row says so and what it gives (``written``).
"""
from __future__ import annotations

import functools
import itertools
import math
import operator
import re
from dataclasses import dataclass, field
from typing import Mapping, NamedTuple

import numpy as np

from .core import Function, Variable, as_variable, using_backprop
from .core import tracing as watching_calls
from .diagnostics import Diagnostics
from .errors import ValuesError, listing
from .expression import Expression, Node
from .printer import format_number, render
from .render import number_text

BAR, DOT = "\u0304", "\u0307"  # combining macron (v̄, an adjoint) and dot above (v̇, a tangent)
SYMBOLS = {"mul": "·"}         # how the literature writes a product
STEP_LETTERS = "vwuyzstpqrabdfghjkmn"  # not c (graph's numbers are c1, c2, ...) or e
MATHEMATICAL = "the mathematical rule"
# A quantity a rule uses but does not differentiate (a Flat step), by the function of the
# language that writes it: abs' = sign(x) prints as sign(v1), not as the number it is here.
WRITTEN_FLATS = {np.sign: "sign"}


class Rule(NamedTuple):
    """One term of an adjoint or tangent: its formula, its value, where a convention at an
    edge of a domain makes it 0 (0^b is flat in b), where ("where v1 = 0"), and what the
    formula gives worked out as written in float64 (None: the value, bit for bit)."""

    text: str
    value: float
    convention: str | None = None
    written: float | None = None
    kink: str | None = None          # the point is on a kink of the step (Step.kink_note)
    unpinned: float | None = None    # a convention's term: its formula as written (0·log 0)


def written(text_value: float, value: float) -> float | None:
    """What a formula gives as written, where that is not the engine's number: a helper
    that takes b - 1 exactly (pow) or avoids a cancellation (tanh') computes the same
    mathematics more accurately than its written form does in float64."""
    same = text_value == value and math.copysign(1, text_value) == math.copysign(1, value)
    return None if same or (math.isnan(text_value) and math.isnan(value)) else text_value


def mathematical(rule_text: str | None, value: float, digits: int | None = None) -> str:
    """The words for a rule that does not give its number as written (see ``written``),
    its number at the --digits the table shows."""
    subject = f"{rule_text} is " if rule_text else ""
    said = format_number(value) if digits is None else number_text(value, digits)
    return (f"{subject}{MATHEMATICAL}: worked out as written in float64 it gives "
            f"{said}; the number shown is the engine's, worked out another way")


def shows_apart(as_written: float, value: float, digits: int | None) -> bool:
    """Whether the rule's number as written prints otherwise than the engine's at the
    --digits shown: rounded alike, the two read the same, and there is nothing to say."""
    return digits is None or number_text(as_written, digits) != number_text(value, digits)


@dataclass(frozen=True)
class Literal:
    """A number or a named constant (pi, e) used as an operand: not a step."""

    text: str
    variable: Variable
    named: bool = False              # pi or e, printed by name in rules too

    @property
    def id(self) -> str:
        return self.text


@dataclass(eq=False)
class Contribution:
    """What ``source`` handed back to its input number ``index``: one term of an adjoint."""

    source: Step
    index: int
    value: float


@dataclass(eq=False)
class Step:
    """One row of the trace: an input variable, an operation, or a constant output."""

    number: int
    kind: str                        # "input" | "operation" | "constant"
    name: str                        # the variable's name or the primitive's name
    variable: Variable               # the engine's Variable for this step
    operands: tuple = ()             # Step or Literal per input of the operation
    function: Function | None = None
    node_index: int | None = None    # where it is in ``expression.nodes``
    contributions: list[Contribution] = field(default_factory=list)
    tangent: float | None = None     # forward mode only
    moves: bool | None = None        # forward mode: whether it depends on the wrt variable
    letter: str = "v"                # another where a name is v1 (step_letter)
    kink: bool = False               # on one of its function's kinks: a convention here

    def kink_note(self) -> str | None:
        """Where the step sits on a kink (abs at 0, a tie of max): its rule gives a number,
        but the derivative does not exist there and the number is a convention."""
        if not self.kink:
            return None
        # (max(x, x): both operands are v1, said once)
        at = listing(list(dict.fromkeys(f"{o.id} = {format_number(o.value)}"
                                        for o in self.operands if isinstance(o, Step))))
        said = KINK_PLACES.get(self.name)
        return (f"a convention: {self.function.label()} is not differentiable at {at}, "
                f"{said(*self.operands) if said else self.function.kink_reason}")

    @property
    def id(self) -> str:
        return f"{self.letter}{self.number}"

    @property
    def adjoint_id(self) -> str:
        return f"{self.letter}{BAR}{self.number}"

    @property
    def tangent_id(self) -> str:
        return f"{self.letter}{DOT}{self.number}"

    @property
    def value(self) -> float:
        return scalar(self.variable.data)

    @property
    def differentiable(self) -> bool:
        """False for a step that depends on no variable: the engine gives it no adjoint."""
        return self.variable.requires_grad

    @property
    def adjoint(self) -> float | None:
        if not self.differentiable:
            return None
        grad = self.variable.grad
        return 0.0 if grad is None else scalar(grad.data)

    def text(self) -> str:
        """The operation on its operands' ids, as the literature writes it: ``v1·v2``."""
        if self.kind != "operation":
            return self.name
        nodes, args = [], []
        for o in self.operands:     # a number as a number: v1^(-1), not v1^-1
            nodes += [Node("variable", 0, name=o.id)] if not isinstance(o, Literal) or \
                o.named else _leaf(Variable(o.variable.data), len(nodes))
            args.append(len(nodes) - 1)
        nodes.append(Node(_kind(self.function), 0, name=type(self.function).name,
                          function=type(self.function), args=tuple(args)))
        return render(nodes, SYMBOLS)


def _atan2_kink(y, x) -> str:
    """Which of atan2's kinks the point is on, in the steps' names: its own words name its
    parameters y and x, which read as the user's (atan2(x, y) at x=0, y=-1 is on the cut
    x = 0, y < 0)."""
    if scalar(x.variable.data) == 0:
        return "the origin"
    # (a number operand passes its test: atan2(v1, -1) needs no "-1 < 0")
    tests = [f"{o.id} {test}" for o, test in ((y, "= 0"), (x, "< 0")) if isinstance(o, Step)]
    return f"the branch cut {', '.join(tests)} where it jumps by 2 pi"


# Kinks whose function's kink_reason names its parameters: said of the step's operands.
KINK_PLACES = {"atan2": _atan2_kink}


@dataclass(eq=False)
class Trace:
    """The steps of one evaluation at one point; ``steps[-1]`` is not always the output
    (``x`` alone: the output is the input v1)."""

    expression: Expression
    point: dict[str, float]
    steps: list[Step]
    output: Step
    mode: str = "reverse"
    wrt: tuple[str, ...] = ()
    diagnostics: Diagnostics = field(default_factory=lambda: Diagnostics((1,)))  # kinks

    def inputs(self) -> dict[str, Step]:
        return {s.name: s for s in self.steps if s.kind == "input"}

    def gradient(self) -> dict[str, float]:
        """d output / d variable for each name in ``wrt`` (0 for one it does not use)."""
        inputs = self.inputs()
        if self.mode == "forward":
            return {w: self.output.tangent for w in self.wrt}
        return {w: inputs[w].adjoint if w in inputs else 0.0 for w in self.wrt}

    def adjoint_order(self) -> list[Step]:
        """The steps with an adjoint, from the output back to the inputs."""
        return [s for s in reversed(self.steps[:self.output.number]) if s.differentiable]

    def first_nonfinite_value(self) -> Step | None:
        return next((s for s in self.steps if not math.isfinite(s.value)), None)

    def first_nonfinite_adjoint(self) -> Step | None:
        """The first nan or inf adjoint on the way to a gradient asked for: one of a step
        no ``wrt`` variable reaches (sqrt(y) to d/dx) is no part of any (grad says nothing
        of it), so it is not the one to blame."""
        asked = self.depending(self.wrt)
        return next((s for s in self.adjoint_order()
                     if s in asked and not math.isfinite(s.adjoint)), None)

    def depending(self, names) -> set[Step]:
        """The steps whose value depends on one of the variables ``names``."""
        found: set[Step] = set()
        for step in self.steps:   # (in evaluation order: operands come first)
            if step.kind == "input" and step.name in names or any(
                    o in found for o in step.operands if isinstance(o, Step)):
                found.add(step)
        return found

    def first_nonfinite_tangent(self) -> Step | None:
        return next((s for s in self.steps if s.tangent is not None
                     and not math.isfinite(s.tangent)), None)

    def nonfinite_cause(self, step: Step, kind: str) -> tuple[str, str] | None:
        """Which function made ``step``'s ``kind`` ("value", "adjoint", "tangent") nan or
        inf from finite numbers, and how, as grad's warnings key it: (primitive name,
        "value" | "derivative" | "overflow"); None where no one function did (inf - inf in
        a sum, or a tangent whose step's value is not finite: that value says why)."""
        if kind == "value":
            return (step.function.name, "value") if step.kind == "operation" else None
        if kind == "tangent":
            source, number = step, step.tangent
            if step.kind != "operation" or not math.isfinite(step.value):
                return None
        else:
            handed = [c for c in step.contributions if not math.isfinite(c.value)
                      and math.isfinite(c.source.adjoint) and math.isfinite(c.source.value)]
            if not handed:
                return None
            source, number = handed[0].source, handed[0].value
        return source.function.name, _derivative_trouble(source, number)

    def term(self, contribution: Contribution) -> Rule:
        """The formula of a contribution, as its source's ``backward`` wrote it."""
        source = contribution.source
        return _rules(source, source.adjoint_id, source.variable.grad.data)[contribution.index]

    def rule(self, contribution: Contribution) -> str:
        return self.term(contribution).text

    def rules(self, step: Step) -> list[str]:
        return [self.rule(c) for c in step.contributions]

    def tangent_terms(self, step: Step) -> tuple[list[Rule], list[tuple[Rule, Step]]]:
        """v̇ of an operation as a sum over its inputs: ∂f/∂a·ȧ + ∂f/∂b·ḃ, each partial
        from ``backward`` run with the input's tangent as the output's gradient (for
        elementwise functions a JVP is a sum of such VJPs). Returns the terms summed and
        those left out with their input: an input that does not depend on the variable
        has a tangent of exactly 0, so its term is 0 even where its formula gives 0·inf
        (Taylor mode leaves it out too, as reverse mode never forms it), a convention's
        0 too where that formula is 0·nan (x^y's 0·(0·log 0) at x=0 along x): that term
        is 0 for the input's sake, not the convention's."""
        summed, left_out = [], []
        for k, operand in enumerate(step.operands):
            if isinstance(operand, Step):
                rule = _rules(step, operand.tangent_id, np.asarray(operand.tangent))[k]
                if rule is None:
                    continue
                formula = rule.unpinned if rule.convention else rule.value
                if operand.moves is False and not math.isfinite(formula):
                    left_out.append((rule, operand))
                else:
                    summed.append(rule)
        return summed, left_out

    @staticmethod
    def kink_notes(step: Step, summed: list[Rule]) -> list[str]:
        """That a step on a kink gives a convention, said of the terms no pin's note says
        it of (x^(x + 0.5) at 0: its inf term is on the kink, its pinned one is 0 by a
        convention of its own): the row's note where that is every term, as in reverse
        mode."""
        unpinned = [r.text for r in summed if not r.convention]
        if not step.kink or not unpinned:
            return []
        if len(unpinned) == len(summed):
            return [step.kink_note()]
        return [f"{join_terms(unpinned)} is {step.kink_note()}"]

    def tangent_rule(self, step: Step) -> str:
        return self.tangent_text(step)[0]

    def tangent_text(self, step: Step, digits: int | None = None) -> tuple[str, str | None]:
        """The rule of v̇ (its terms summed) and what the rule does not say: a term that a
        convention makes 0, a term left out as exactly 0 (see tangent_terms); ``digits``:
        the --digits the tangent is shown at."""
        summed, left_out = self.tangent_terms(step)
        rule = join_terms([r.text for r in summed]) if summed else "0"
        notes = [f"{r.text} is 0 by convention {r.convention}" for r in summed if r.convention]
        notes += self.kink_notes(step, summed)
        # The terms as written, added left to right as printed; a term a convention pins
        # to 0 counts as the 0 its note says.
        total = functools.reduce(operator.add, [r.value if r.convention or r.written is None
                                                else r.written for r in summed], 0.0)
        if summed and written(total, step.tangent) is not None and \
                shows_apart(total, step.tangent, digits):
            notes.append(mathematical(None, total, digits))
        if left_out:
            inputs = list(dict.fromkeys(o.id for _, o in left_out))
            notes.append(f"left out: {listing([r.text for r, _ in left_out])}, exactly 0 as "
                         f"{listing(inputs)} {'does' if len(inputs) == 1 else 'do'} not "
                         f"depend on {self.wrt[0]}")
        return rule, "; ".join(notes) or None


def _derivative_trouble(step: Step, number: float) -> str:
    """"overflow" where an inf came from inside the function's smooth domain (log's 1/x at
    1e-300 times a large gradient), else "derivative" (an edge): as grad's watcher says."""
    from .diagnostics import inside

    xs = [o.variable.data for o in step.operands]
    return "overflow" if math.isinf(number) and np.all(inside(step.function, xs)) \
        else "derivative"


def adjoint_note(rules: list[Rule], single: bool, digits: int | None = None) -> str | None:
    """What the formulas of an adjoint's terms do not say: that a convention makes one 0,
    that the point is on a kink, that one is the mathematical rule, not the arithmetic
    (see ``written``), where that shows at ``digits`` (--digits)."""
    pinned = [r for r in rules if r.convention]
    if single and pinned:
        return f"0 by convention {pinned[0].convention}"
    notes = [f"{r.text} is 0 by convention {r.convention}" for r in pinned]
    notes += [r.kink if single else f"{r.text} is {r.kink}" for r in rules if r.kink]
    notes += [mathematical(None if single else r.text, r.written, digits) for r in rules
              if r.written is not None and shows_apart(r.written, r.value, digits)]
    # (max(x, x)'s two terms are both v̄2·0.5 on the same tie: one note says it)
    return "; ".join(dict.fromkeys(notes)) or None


def scalar(data) -> float:
    return float(np.asarray(data).reshape(-1)[0])


def join_terms(terms: list[str]) -> str:
    """``a + b``, and ``a - b`` for a term printed with a leading minus."""
    text = terms[0]
    for term in terms[1:]:
        text += f" - {term[1:]}" if term.startswith("-") else f" + {term}"
    return text


# ----- recording -----------------------------------------------------------------------

def record(expression: Expression, point: Mapping[str, float], kinked=None) -> Trace:
    """Evaluate at one point on the tape, as ``Expression`` does (a point is an array of
    one, so the numbers agree with ``grad`` to the last bit), keeping every step.
    ``kinked``: the variables whose steps' kinks are marked (default: every variable), as
    ``Expression.moving`` says; a kink of a step no derivative asked for passes through
    is no convention of them (``abs(y)`` to d/dx)."""
    if expression.has_diff:  # a diff() node is whole reverse passes, not one step
        raise ValuesError("trace and graph show one evaluation step by step, and diff() "
                          "runs reverse passes of its own inside it: trace the expression "
                          "it differentiates instead")
    leaves = {v: Variable(np.array([point[v]], dtype=np.float64), name=v)
              for v in expression.variables}
    # (a --let name v1 would read as step v1, its definition's step being another)
    letter = step_letter([*expression.variables, *expression.names.values()])
    steps = [Step(i + 1, "input", v, leaf, letter=letter)
             for i, (v, leaf) in enumerate(leaves.items())]
    inputs = {s.name: s for s in steps}
    operands: list = []
    diagnostics = Diagnostics((1,))
    varying = expression.varying if kinked is None else expression.moving(kinked)
    for index, node in enumerate(expression.nodes):
        if node.kind == "variable":
            operands.append(inputs[node.name])
        elif node.function is None:
            text = node.name or format_number(node.value)
            operands.append(Literal(text, Variable(node.value, requires_grad=False),
                                    bool(node.name)))
        else:
            args = tuple(operands[i] for i in node.args)
            function = node.function()
            y = function(*[a.variable for a in args])
            if all(isinstance(a, Literal) for a in args):
                # -1 in x^-1, 1/2 in x^(1/2), 2*pi in sin(2*pi*x): a number, worked out as
                # by hand, not a step (as sin(1) is; a lone pi stays pi, by name)
                operands.append(Literal(format_number(scalar(y.data)), y))
                continue
            kink = False
            if varying[index]:
                data = [a.variable.data for a in args]
                diagnostics.add_kinks(function, *data)
                kink = bool(np.any(function.kinks(*data)))
            step = Step(len(steps) + 1, "operation", node.function.name, y, args, function,
                        index, letter=letter, kink=kink)
            steps.append(step)
            operands.append(step)
    output = operands[-1]
    if isinstance(output, Literal):  # "2", "pi" or 2*3: no operation, but still a result
        text = render(expression.nodes, SYMBOLS) if expression.nodes[-1].function else \
            output.text
        output = Step(len(steps) + 1, "constant", text, output.variable, letter=letter)
        steps.append(output)
    return Trace(expression, dict(point), steps, output, diagnostics=diagnostics)


def step_letter(names) -> str:
    """The letter of the step names: v, as the literature writes them, unless a variable
    or --let name is v1 (or v2, ...): then a letter no such name takes so."""
    taken = {m.group(1) for n in names for m in [re.fullmatch(r"([^\d]+)\d+", n)] if m}
    for size in itertools.count(1):   # ends: only finitely many names are taken
        for letter in STEP_LETTERS:
            if letter * size not in taken:
                return letter * size


def structure(expression: Expression) -> Trace:
    """The steps without values (every value nan): what ``adcli graph`` draws without
    --at. Which steps exist does not depend on the values."""
    with np.errstate(all="ignore"):
        return record(expression, {v: math.nan for v in expression.variables})


def reverse(expression: Expression, point: Mapping[str, float], wrt=None) -> Trace:
    """The primal trace and one reverse pass, every contribution caught on the way."""
    with np.errstate(all="ignore"):
        trace = record(expression, point)
        trace.wrt = tuple(expression.variables if wrt is None else wrt)
        by_function = {id(s.function): s for s in trace.steps if s.function is not None}

        def watch(function, index, gx):
            step = by_function[id(function)]
            step.operands[index].contributions.append(
                Contribution(step, index, scalar(gx.data)))

        # The contributions stay in the order the engine adds them, so that a sum printed
        # left to right is the adjoint to the last bit (with 3 terms or more the order
        # can change the last bit).
        trace.output.variable.backward(retain_grad=True, watch=watch)
    return trace


def forward(expression: Expression, point: Mapping[str, float], wrt: str) -> Trace:
    """The primal trace with each step's tangent along ``wrt`` (seed: d wrt = 1)."""
    from .taylor import jvp

    seed = {wrt: 1.0} if wrt in expression.variables else {}
    with np.errstate(all="ignore"):
        trace = record(expression, point, (wrt,))
        result = jvp(expression, dict(point), seed)
    trace.mode, trace.wrt = "forward", (wrt,)
    for step in trace.steps:
        if step.kind == "input":
            step.tangent, step.moves = seed.get(step.name, 0.0), step.name in seed
        elif step.kind == "operation":
            step.tangent = scalar(result.tangents[step.node_index])
            step.moves = any(o.moves for o in step.operands if isinstance(o, Step))
        else:
            step.tangent, step.moves = 0.0, False
    return trace


# ----- a primitive's rule, printed -----------------------------------------------------

def _rules(step: Step, gradient_name: str, gradient_data) -> list[Rule | None]:
    """What ``step``'s backward hands each input, as text: the same primitive, called on
    Variables named like the trace's steps (with their values, since some rules depend
    on them: a constant exponent, the side of a kink), recorded and printed."""
    # Every placeholder is recorded, a constant too: a rule's log(2) for 2^x then prints
    # as log(2), not as the number it folds to.
    placeholders = [Variable(o.variable.data, name=_placeholder_name(o), requires_grad=True)
                    for o in step.operands]
    from .functions import Flat

    function = type(step.function)()
    masks: dict[int, tuple] = {}  # a pin's mask is not recorded (Flat): seen being made

    def seen(called, inputs, output):
        if isinstance(called, Flat):
            masks[id(output)] = (called, inputs, output)

    with np.errstate(all="ignore"), using_backprop(True), watching_calls(seen):
        y = function(*placeholders)
        y.name = step.id
        gradients = function.backward(Variable(gradient_data, name=gradient_name))
    if not isinstance(gradients, tuple):
        gradients = (gradients,)
    with np.errstate(all="ignore"):  # a helper written out (0^(0.5 - 1)) computes again
        return [None if g is None or not o.variable.requires_grad else
                _rule(as_variable(g), masks, step.kink_note())
                for o, g in zip(step.operands, gradients)]


def _rule(gradient: Variable, masks: dict, kink: str | None) -> Rule:
    """A gradient as a Rule: a pin that makes it 0 here (Keep, a convention at an edge) is
    not printed as keep(..., 0), an engine helper no one writes, but said in words."""
    from .functions import Keep

    value = scalar(gradient.data)
    pin = gradient.creator
    if gradient.name or not isinstance(pin, Keep) or np.all(pin.inputs[1].data):
        text, as_written = _written_formula(gradient, masks)
        return Rule(text, value, None, written(as_written, value), kink)
    # pinned: the convention's note says the 0, whatever the formula gives
    text, as_written = _written_formula(pin.inputs[0], masks)
    return Rule(text, value, _where(masks.get(id(pin.inputs[1]))), unpinned=as_written)


def _where(mask) -> str:
    """The tests of a pin's mask in the trace's names: "where v3 = 0, v2 > 0 and v1 ≤ 0"
    (a test not known here says the value: "where v2 = 1.0")."""
    tests = getattr(mask[0].rule, "tests", ()) if mask else ()  # (functions._kept)
    inputs = mask[1] if mask else ()
    if not inputs or len(tests) != len(inputs):
        return "at this point"
    parts = [f"{formula(x)} {t.said}" if hasattr(t, "said") else
             f"{formula(x)} = {format_number(scalar(x.data))}" for x, t in zip(inputs, tests)]
    return "where " + listing(list(dict.fromkeys(parts)))


def _placeholder_name(operand) -> str | None:
    if isinstance(operand, Literal):
        return operand.text if operand.named else None  # a number prints as its value
    return operand.id


def formula(root: Variable) -> str:
    """A recorded Variable as text: named Variables are leaves, recorded ones are expanded
    into their Function (with an explicit stack: no recursion), the rest are numbers."""
    return _written_formula(root)[0]


def _written_formula(root: Variable, flats: dict | None = None) -> tuple[str, float]:
    """``formula(root)``, and what that text gives worked out as written in float64: each
    function of the language on the values of its arguments as printed (a helper as it is
    spelled, a number as printed), not the helper the engine ran. ``flats``: the Flat
    steps seen being made (_rules), so that abs's sign(v1) prints as sign(v1)."""
    nodes: list[Node] = []
    values: list = []                  # per node: its value as written
    placed: dict[int, int] = {}
    spelled: dict[int, Variable] = {}  # a helper primitive's output -> the language's form
    stack = [(_through_pins(root), False)]
    while stack:
        variable, ready = stack.pop()
        if id(variable) in placed:
            continue
        creator = None if variable.name else variable.creator or _flat_written(variable,
                                                                               flats)
        if hasattr(creator, "spelled"):  # a helper only backward rules use (sech2, ...)
            if id(variable) not in spelled:
                with using_backprop(True):
                    spelled[id(variable)] = creator.spelled(*creator.inputs)
            form = spelled[id(variable)]
            if id(form) in placed:
                placed[id(variable)] = placed[id(form)]
            else:
                stack.extend([(variable, False), (form, False)])
            continue
        if creator is None:
            leaf = _leaf(variable, len(nodes))
            nodes.extend(leaf)
            values.extend([-variable.data, variable.data][-len(leaf):])
        elif not ready:
            stack.append((variable, True))
            stack.extend((_through_pins(x), False) for x in reversed(creator.inputs))
            continue
        else:
            cls = type(creator)
            args = tuple(placed[id(_through_pins(x))] for x in creator.inputs)
            nodes.append(Node(_kind(creator), 0, name=getattr(cls, "name", "") or
                              cls.__name__.lower(), function=cls, args=args))
            with np.errstate(all="ignore"):
                values.append(creator.forward(*[values[i] for i in args]))
        placed[id(variable)] = len(nodes) - 1
    return render(nodes, SYMBOLS), scalar(values[-1])


def _flat_written(variable: Variable, flats: dict | None) -> Function | None:
    """The language's function that writes a Flat step (WRITTEN_FLATS), as the creator of
    its output, or None: the step prints as its number (a share of min's gradient)."""
    made = (flats or {}).get(id(variable))
    name = made and WRITTEN_FLATS.get(made[0].rule)
    if not name:
        return None
    from .functions import PRIMITIVES

    function = PRIMITIVES[name]()
    function.inputs = list(made[1])
    return function


def _through_pins(variable: Variable) -> Variable:
    """What a pin (Keep: a convention at an edge, applied wherever it might hold) lets
    through at this point: its gradient where it keeps it, so it prints as that."""
    from .functions import Keep

    while isinstance(variable.creator, Keep) and np.all(variable.creator.inputs[1].data):
        variable = variable.creator.inputs[0]
    return variable


def _leaf(variable: Variable, at: int) -> list[Node]:
    if variable.name:
        return [Node("variable", 0, name=variable.name)]
    value = scalar(variable.data)
    if math.copysign(1.0, value) < 0:  # -1 as an operand reads better as (-1)
        from .functions import Neg

        return [Node("number", 0, value=-value), Node("prefix", 0, name="neg", function=Neg,
                                                      args=(at,))]
    return [Node("number", 0, value=value)]


def _kind(function: Function) -> str:
    if not getattr(function, "symbol", ""):
        return "call"
    return "infix" if function.arity == 2 else "prefix"
