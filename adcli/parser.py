"""Text to Expression: loads grammar/expr.lark and reports syntax errors with a caret.

The LALR parser calls the builder (adcli.reader) on every reduction, children first, so the
nodes come out already flat in evaluation order and no tree is ever walked recursively.
"""
from __future__ import annotations

import itertools
import re
import threading
from collections.abc import Mapping

from . import lalr
from .definitions import Definitions
from .errors import INVISIBLE, ExpressionError, escape, quote
from .expression import LATEX_LETTERS, Expression, normal_name
from .printer import as_operand as _operand, render
# (tex_font: the grammar's own fonts, \operatorname{sech}, \mathrm e)
from .reader import CAUTIONS, LOOKED_AT, PI_FORMS, RELATION, Builder as _Builder, \
    ForLark as _ForLark, marks_in, relation_error, tex_font as _font_named
from .records import Record

_EXPECTED = {"NUMBER": "a number", "NAME": "a name", "CALL": "a name", "ROOT": "a name",
             "PI": "a name", "LPAR": "'('", "BAR": "'|'", "_WORD_RPAR": "'〗'",
             "ADD_OP": "an operator", "MUL_OP": "an operator", "POW_OP": "an operator",
             "SUPERSCRIPT": "an operator", "RPAR": "')'", "RSQB": "']'", "RBRACE": "'}'",
             "COMMA": "','", "$END": "the end"}


def _grammar_text() -> str:
    return lalr.grammar_text()


_builder = _Builder()
_lock = threading.Lock()
_table_parser: lalr.Parser | None = None
_lark = None


def _parser() -> lalr.Parser:
    """The grammar's LALR tables, generated at install time: no lark import at start-up."""
    global _table_parser
    if _table_parser is None:
        _table_parser = lalr.Parser(lalr.load_tables(), _builder)
    return _table_parser


def _lark_parser():
    """lark itself, loaded only to explain input the tables reject (its caret errors)."""
    global _lark
    if _lark is None:
        from .lalr_tables import make_lark

        _lark = make_lark(_grammar_text(), transformer=_ForLark(_builder), cache=True)
    return _lark


def parse(text: str, definitions: Mapping[str, str] | Definitions | None = None) -> Expression:
    """Parse an expression of the adcli language; raise ExpressionError on bad input.

    ``definitions`` maps names to the texts they stand for (the CLI's ``--let F=...``): a
    definition may use the others, never itself, and its name is not a variable."""
    if not text.strip():
        raise ExpressionError("the expression is empty", text, 0)
    if definitions is not None and not isinstance(definitions, Definitions):
        definitions = define(definitions)
    names = definitions.names if definitions is not None else frozenset()
    said: list[str] = []
    nodes, roots = _nodes(text, names, said=said), {}
    if definitions is not None:
        nodes, roots = definitions.link(nodes)
    expression = Expression(text, nodes, roots)
    # What the reader saw rarely meant (sinx, cos x e^x), for cautions(): worded while
    # the run's nodes were at hand, before definitions were linked in.
    expression._read_cautions = said
    return expression


# Two readings right by the rules and rarely meant. x^1/2: a power of 1 or -1 written
# before "/" and a number. e^2x: a number's or e's power of a number glued to a name (x^2y,
# x squared times y, is as often meant as not: not warned of). The text is searched first:
# a 1 MB expression is not walked node by node for them. (Compiled only when a text may
# hold one: ~1 ms, a start-up's 1%.)
# x^1/2, x^-1/2 and x^-3/2 (a negative power over a number is hardly meant as one: the
# half-integer powers of physics), not x^3/2 or x^2/2, as often a power halved
_POWER_OVER = r"(\^|\*\*)\s*(?:([-−+]?)\s*(1)|([-−])\s*(\d+))\s*/\s*(\d+\.?\d*|\.\d+)" \
    r"(?<!/1)(?<!/\s1)(?!\s*(?:\^|\*\*|[\d.]))"   # (not x^-3/1, nor x^-3/2^2's divisor)
_GLUED = r"(\^|\*\*)\s*([-−+]?\s*(?:\d+\.?\d*|\.\d+))(?![eE][-+]?\d)" \
    r"([^\W\d⁰¹²³⁴-⁹¼-¾⅐-⅞" + PI_FORMS + r"][\w]*|[" + PI_FORMS + r"]|\\[A-Za-z]+)"
# (the factor glued on may be π, in any of its forms, or a command, \theta or \pi: e^2\theta
# is e^2θ, said as e^2θ is; a command that is no letter, \left or \sin, is no factor of that
# reading)
# (CAUTIONS: warnings of readings, at most; LOOKED_AT: places of each reading looked at, at
# most, x^1/2 10^4 times: the first. Both from adcli.reader, which says some itself.)
# A name's letters after its first are [\w] in these patterns: _with_marks adds the
# combining marks of the text at hand (the grammar's _MARK), so θ̂ is read whole.


def _with_marks(pattern: str, text: str) -> str:
    """``pattern`` with each \\w in it (always in a class) taking the combining marks
    ``text`` holds too: x́ and θ̂ are one letter each, as the grammar reads them."""
    marks = marks_in(text)
    return pattern.replace("\\w", "\\w" + marks) if marks else pattern


def _may_hold_one(text: str) -> bool:
    """Cheaply, whether some ^ is followed by a number and then '/' or a letter (a long
    text is left to the regular expressions)."""
    if "^" not in text and "**" not in text:
        return False
    if len(text) > 10_000:
        return True
    for piece in text.replace("**", "^").split("^")[1:]:
        rest = piece.lstrip(" +-−")
        after = rest.lstrip("0123456789.")
        if len(after) < len(rest) and (after[:1].isalpha() or after[:1] == "\\"
                                       or after.lstrip()[:1] == "/"):
            return True
    return False


def cautions(expression: Expression) -> list[str]:
    """Readings right by the rules that are rarely what was meant, as warnings: in x^1/2
    the power is x^1 and /2 divides after it; in e^2x the power is e^2, times x; in ln 1/x
    the logarithm is of 1; and what the reader said while reading: 1e400 is inf, sinx is
    one name, cos x e^x is cos(x*(e^x))."""
    return [*_readings(expression), *expression._read_cautions][:CAUTIONS]


class OtherReading(Record):
    """How a place a caution is about was likely meant: ``written`` as it is (1/2 x),
    ``meant`` so ((1/2)*x), and ``text``, the whole expression written so. (A Record, not
    a NamedTuple: making that class compiles code, ~0.1 ms of every start-up.)"""

    __slots__ = _fields = ("written", "meant", "text")

    def __init__(self, written: str, meant: str, text: str):
        self.written, self.meant, self.text = written, meant, text


def other_readings(expression: Expression) -> list[OtherReading]:
    """The other reading of each place ``cautions`` warns of (not the reader's own)."""
    return list(_readings(expression).values())


def _readings(expression: Expression) -> dict[str, OtherReading]:
    """Each caution of a reading right by the rules, with the reading likely meant."""
    text = expression.text
    # (the regular expressions are compiled on first use: none is on every run's path)
    said, of_number, covered = {}, {}, set()
    # (sin π/6 x: the function's caution offers sin((pi/6)*x), the spaced divisor's own
    # reading inside it, so the division it is about is not said again as (sin(pi)/6)*x)
    if "/" in text and _may_hold_a_function_of_one(text):
        of_number = _function_of_number(expression, covered)
    # (1/√2 x sin y: the root's caution offers (1/sqrt(2))*(x*sin(y)), said in its place)
    roots = _root_divisor(expression, covered) if "/" in text and (
        "√" in text or "∛" in text) and re.search(_ROOT_DIVISOR, text) else {}
    if "/" in text and re.search(_SPACED, text):
        said.update(_spaced_divisor(expression, covered))
    said.update(roots)
    if _may_hold_one(text):
        said.update(_powers(expression))
    said.update(of_number)
    return said


# A factor after '/', then a space and another factor: 1/2 x, 3/4 sin x, 1/(x+1) (x-1),
# sin(x)/x cos(x), 1/sin 2x cos x, 3/2 √x, 1/2 |x|, or a LaTeX command (2/x\ln x); spaces
# inside a bracket too: 1/(x^2 + 1) 2x. (A quick look for one; the text is read properly by
# _factor_end and _spaced_at.)
_FACTOR_OPENS = r"[\w\\(\[{|.\u221a\u221b]"    # a name, a command, a bracket, bars, √ or ∛
_SPACED = r"/\s*[^\s/]+(?:\s+" + _FACTOR_OPENS + r"|\\)|/[^/]*?[)\]}|]\s+" + _FACTOR_OPENS
_NAME = r"[^\W\d][\w]*"
# (π is a factor of its own, as the grammar's _PI, except as a subscript: 2πx is 2, π, x;
# x_π one name)
_FACTOR_NAME = r"[" + PI_FORMS + r"]|[^\W\d" + PI_FORMS + r"](?:(?![" + PI_FORMS + \
    r"])[\w]|_[" + PI_FORMS + r"])*"
# (a command word ends at its last letter, as the grammar's _TEX_WORD: \pi2 is \pi, 2; its
# subscript is one token with it)
_ATOM = r"\d+\.?\d*|\.\d+|" + _FACTOR_NAME + r"|\\[^\W\d_]+(?:_[\w])?"
# What shows a space after the divisor's first factor: a space (then a letter, a command, a
# bracket, bars, a root's sign or a number: the chain rule's factor, 1/(x^2+1) 2x; 3/2 √x,
# 1/2 |x|: whatever the factor after the space starts with), TeX's spacing (\, \; \:
# \quad), or a function's command, which TeX sets apart from the factor before it (2/x\ln x
# shows as 2/x \ln x does; 1/2\pi as 1/2π, no space). (A number after a name is refused by
# the reader, 1/x 2: one can follow only a bracket or a bar, 1/(x+1) 2x.)
_GAP = r"\s+(?:[^\W\d_]|\\|[(\[{|\u221a\u221b]|\.?\d)" \
    r"|\\(?:[,;: ]|q?quad(?![^\W\d_])|operatorname\b)|\\(?P<command>[^\W\d_]+)"
_OPENING = "([{|"
_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺"


def _spaced_divisor(expression: Expression, covered=frozenset()) -> dict[str, OtherReading]:
    """1/2 x is 1/(2*x) by the rules (side by side binds tighter than /, as in 1/2x), and
    so is 1/(x+1) (x-1) 1/((x+1)(x-1)); with a space after the divisor's first factor it
    is more often meant as (1/2)*x: said, except of a division at a place in ``covered``
    (another caution's reading holds this one's)."""
    nodes, text, said = expression.nodes, expression.text, {}
    for node in nodes:
        if node.name != "div" or node.kind != "infix" or node.position in covered:
            continue
        end = _factor_end(text, node.position + 1)
        if end is None:
            continue
        factors, first = _run_after(expression, node.args[1], end)
        if not factors:
            continue
        # 1/sin x cos x, 1/sin 2x cos x: the first factor is a function with its argument,
        # which ends where a space, TeX's or the next function's, shows: said after it
        if _bare_function(text, node.position + 1, end):
            end = _start(expression, factors[-1], end)
        elif not _spaced_at(text, end):
            glued = _glued_run(expression, node.args[1], end)
            if glued is None:
                continue
            factors, first, end = glued
        left, right = node.args
        top, n = _operand(nodes, left), _operand(nodes, first)
        rest = "*".join(_operand(nodes, j) for j in reversed(factors))
        written, meant = f"{top}/{n} {rest}", f"({top}/{n})*{rest}"
        write, other = f"{top}/{n}*{rest}", f"{text[:end]}*{text[end:]}"
        typed = _typed_divisor(expression, node, first, factors, end)
        if typed is not None:
            written, meant, write, other = typed
        caution = (f"{written}: a product written side by side binds tighter than '/', so "
                   f"this divides by {render(nodes, root=right)}; for {meant}, write "
                   f"{write}")
        if caution not in said:  # (the text is copied once for each: it may be 1 MB)
            said[caution] = OtherReading(written, meant, other)
        if len(said) == CAUTIONS:
            break
    return said


def _glued_run(expression: Expression, divisor: int, end: int):
    """1/2π √(k/m), h/2π ω, 1/2x y: the divisor's first factors glued together (2π, as 2x),
    then a space and another factor, a run as often meant as (1/(2π))*√(k/m) as 1/2 x is:
    (the factors after the glued run, right to left, the run's node, where it ends), None
    where no space shows after a glued run that other factors follow."""
    nodes, text = expression.nodes, expression.text
    chain = [divisor]   # the side-by-side products, outermost first, as _run_after walks
    while nodes[chain[-1]].name == "mul" and nodes[chain[-1]].kind == "infix" \
            and chain[-1] not in expression.names:
        chain.append(nodes[chain[-1]].args[0])
    for depth in range(len(chain) - 2, 0, -1):   # (the outermost product has no factor after)
        glued = nodes[chain[depth]].args[1]
        if _start(expression, glued, -1) != end:
            return None
        end = _factor_end(text, end)
        if end is None:
            return None
        if _spaced_at(text, end):
            return [nodes[at].args[1] for at in chain[:depth]], chain[depth], end
    return None


# A number written against a bracket: the 2 of 1/2(x^2+1)^(-1/2)
_NUMBER_THEN_BRACKET = r"\s*(?:\d+\.?\d*|\.\d+)(?=[(\[])"


def _typed_divisor(expression: Expression, div, first: int, factors: list[int],
                   end: int) -> tuple[str, str, str, str] | None:
    """(written, meant, what to write, the text so read) of a spaced divisor whose dividend
    is a product, or whose first factor is a number against a bracket, in the words typed:
    rendered, 1/2(x^2+1)^(-1/2) 2x reads 1/(2*(((x^2) + 1)^((-1)/2))) 2*x, the very reading
    it warns of, and x^2 (x+1)^3/(x-1) y reads ((x^2)*((x + 1)^3))/(x - 1) y. The number
    before a bracket raised to a power is taken as a coefficient's denominator, as the
    power rule writes it: (1/2)*(x^2+1)^(-1/2)*2x. None
    elsewhere (1/(2x) y renders as plainly), and where the text cannot be cut so (--let
    names, a bare function's argument running on, a bracket opened before the dividend)."""
    nodes, text = expression.nodes, expression.text
    left = div.args[0]
    number = re.compile(_NUMBER_THEN_BRACKET).match(text, div.position + 1)
    if number is not None and (nodes[first].name != "mul" or not _powered(text, number.end())):
        number = None   # (1/2(x+1) y: as often 1/(2(x+1)) times y)
    if (number is None and nodes[left].name != "mul") or expression.names:
        return None
    start, stop = _start(expression, left, -1), end
    for _ in factors:
        stop = _factor_end(text, stop) if stop is not None else None
    if start < 0 or stop is None or not _holds(expression, div.args[1], stop):
        return None
    top, divisor = text[start:div.position].strip(), text[div.position + 1:end].strip()
    rest, written = text[end:stop].strip(), text[start:stop].strip()
    if not all(written.count(a) == written.count(b) for a, b in ("()", "[]", "{}")):
        return None
    if number is None:
        return (written, f"({top}/{divisor})*{rest}", f"{top}/{divisor}*{rest}",
                f"{text[:end]}*{text[end:]}")
    n = number.end()
    over, after = f"{top}/{text[div.position + 1:n].strip()}", text[n:end].strip()
    return (written, f"({over})*{after}*{rest}", f"{over}*{after}*{rest}",
            f"{text[:n]}*{text[n:end]}*{text[end:]}")


def _powered(text: str, i: int) -> bool:
    """Whether the bracket opening at text[i] is raised to a negative or fractional power:
    2(x^2+1)^(-1/2), the power rule's coefficient and its base, as it writes n·u^(n-1).
    (Not 2(x+1)^2 y: as often 1/(2(x+1)^2) times y; a negative power already divides.)"""
    close = _closing(text, i)
    if close is None:
        return False
    if text[close:close + 1] in _SUPERSCRIPTS:
        return text[close] == "\u207b"     # ⁻
    if text[close:close + 1] != "^":
        return False
    power = re.compile(r"\s*(\([^()]*\)|-?[\w.]+)").match(text, close + 1)
    return power is not None and any(c in power.group(1) for c in "-/.")


def _holds(expression: Expression, root: int, stop: int) -> bool:
    """Whether every node under ``root`` is placed before text[stop]."""
    stack, nodes = [root], expression.nodes
    while stack:
        at = stack.pop()
        if nodes[at].position >= stop:
            return False
        stack.extend(nodes[at].args)
    return True


# A root's sign right after '/', a number, a space and another factor: 1/√2 x, 3/∛8 e^x
_ROOT_DIVISOR = r"/\s*[\u221a\u221b]\s*(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?[ \t]+\S"


def _root_divisor(expression: Expression, covered: set) -> dict[str, OtherReading]:
    """1/√2 x is 1/sqrt(2*x) by the rules (a root's sign takes every factor after it), while
    on paper the bar covers the 2 alone and, as 1/2 x, (1/√2)*x is more often meant: said
    once, with that reading (the reader leaves its own caution of √2 x to this one, whose
    rewrite, √(2) x, would be a spaced divisor, 1/√(2) x, cautioned in turn; so is the
    spaced divisor of 1/√2 x sin y: the place of each division said goes into ``covered``)."""
    from .reader import ROOT_SIGNS, SPACED_NUMBER

    nodes, text, said, looked = expression.nodes, expression.text, {}, 0
    for node in nodes:
        if node.name != "div" or node.kind != "infix":
            continue
        sign = re.compile(r"\s*").match(text, node.position + 1).end()
        number = re.compile(r"\s*" + SPACED_NUMBER).match(text, sign + 1)
        if text[sign:sign + 1] not in ROOT_SIGNS or number is None:
            continue
        outer, root = _run_after(expression, node.args[1], sign)   # 1/√2 x sin y: sin y
        if nodes[root].kind != "call" or nodes[root].position != sign:
            continue
        factors, first = _run_after(expression, nodes[root].args[0], number.end())
        if not factors or nodes[first].kind != "number":
            continue
        covered.add(node.position)
        if looked < LOOKED_AT and len(said) < CAUTIONS:  # (each reads its divisor again)
            _root_divisor_at(expression, node, number, (root, first, outer + factors), said)
            looked += 1
    return said


def _root_divisor_at(expression: Expression, div, number: re.Match, run: tuple,
                     said: dict) -> None:
    """The caution of a division by a root of a number (the number ends at number.end())
    and its other reading, into ``said``. ``run``: the root's node, the number's, and the
    factors after the number, the root's and then the divisor's, right to left."""
    nodes, text, (root, first, factors) = expression.nodes, expression.text, run
    sign, top = nodes[root].position, _shown(expression, div.args[0])
    at = _dividend_start(expression, div.args[0], div.position)
    shown = text[at:div.position].rstrip() if at >= 0 else top
    end = _run_end(expression, div.args[1], number.end(), sign)
    rest = [_shown(expression, j) for j in reversed(factors)]
    tail = text[number.end():end] if end is not None else " ".join(rest)
    closed = sign + len(text[sign:number.end()].rstrip())   # after the number
    written = text[at:end] if at >= 0 and end is not None else \
        f"{shown}/{text[sign:closed]} {tail}"
    # (the rest grouped, as its rewrite reads it: a product side by side is one factor)
    after = rest[0] if len(rest) == 1 else f"({'*'.join(rest)})"
    meant = f"({top}/{nodes[root].name}({_operand(nodes, first)}))*{after}"
    caution = (f"{written}: a function written without parentheses takes every factor "
               f"after it, so this divides by {render(nodes, root=div.args[1])}; for "
               f"{meant}, write {shown}/{text[sign:closed]}*{tail}")
    if caution not in said:  # (the text is copied once for each: it may be 1 MB)
        said[caution] = OtherReading(written, meant, f"{text[:closed]}*{text[number.end():]}")


def _dividend_start(expression: Expression, left: int, slash: int) -> int:
    """Where the dividend before the '/' at text[slash] starts, without the brackets it
    is only in ((1/√2 x): the 1), -1 where not known (a --let name's nodes)."""
    text, at = expression.text, _start(expression, left, -1)
    while 0 <= at < slash and text[at] in _OPENING:
        close = _closing(text, at) if text[at] != "|" else _closing_bar(text, at + 1)
        if close is not None and close <= slash:
            break
        at = re.compile(r"\s*").match(text, at + 1).end()
    return at


def _run_end(expression: Expression, divisor: int, start: int, sign: int) -> int | None:
    """Where a root's argument, its run after the number from text[start] on, ends in the
    text, the brackets and bars it opened closed (1/√2 (x+1): after the ')', though its
    last node is the 1); None where not known for sure: the root from text[sign] to there,
    read alone, must read as ``divisor`` does (with --let names as names)."""
    text, nodes = expression.text, expression.nodes
    last, stack = divisor, [divisor]
    # (a --let name's nodes are placed in its own text; its product, where it is written)
    while stack:
        at = stack.pop()
        last = max(last, at, key=lambda i: nodes[i].position)
        stack.extend(() if at in expression.names else nodes[at].args)
    end = _factor_end(text, nodes[last].position)
    end = _closed_end(text, start, end) if end is not None else None
    if end is None:
        return None
    try:
        alone = _nodes(text[sign:end], frozenset(expression.names.values()), hint=False)
    except ExpressionError:
        return None
    # (printed with the names, the divisor is followed by " where " and their definitions)
    read = render(nodes, root=divisor, names=expression.names).partition(" where ")[0]
    return end if render(alone) == read else None


# A bracket or bars opening a group: (, [, {, |, \lvert, \vert, \left|
_GROUP_OPENS = r"[(\[{]|\||\\(?:l?vert(?![^\W\d_])|left\s*\|)"


def _closed_end(text: str, start: int, end: int) -> int | None:
    """``end``, or past it the end (with its powers) of a group opened from text[start]
    and not closed before text[end] (1/√2 (x+1): the factor's last node is its 1)."""
    while True:
        opening = re.compile(_GROUP_OPENS).search(text, start, end)
        if opening is None:
            return end
        close = _closing(text, opening.start()) if opening.group() in "([{" else \
            _closing_bar(text, opening.end())
        if close is None or close > end:
            return _powers_end(text, close)
        start = close


def _run_after(expression: Expression, divisor: int, end: int) -> tuple[list[int], int]:
    """The factors of the divisor's run written after its first factor (which ends at
    text[end]), right to left, and that first factor: a product in brackets is one
    (1/(2x) y: (2x), then y), as a --let name is."""
    nodes, factors, first = expression.nodes, [], divisor
    # (a side-by-side product's node is placed where its right factor starts)
    while nodes[first].name == "mul" and nodes[first].kind == "infix" \
            and nodes[first].position >= end and first not in expression.names:
        factors.append(nodes[first].args[1])
        first = nodes[first].args[0]
    return factors, first


def _spaced_at(text: str, end: int) -> bool:
    """Whether a space shows after the divisor's first factor, ending at text[end] (_GAP)."""
    gap = re.compile(_GAP).match(text, end)
    if gap is None or gap.group("command") is None:
        return gap is not None
    from .reader import ROOTS, is_function_name

    command = gap.group("command")
    return is_function_name(command) and "\\" + command not in ROOTS   # (\sqrt: no space)


def _bare_function(text: str, start: int, end: int) -> bool:
    """Whether the divisor's first factor, from text[start] to text[end], is a function's
    name without its argument in brackets (1/sin x cos x, 1/\\ln^2 x \\cos x): its argument, and
    so the factor, runs on past ``end``."""
    from .reader import is_function_name

    name = re.compile(r"\s*\\?(" + _NAME + ")").match(text, start, end)
    return name is not None and is_function_name(name.group(1)) and \
        re.compile(r"[^(\[{]*[(\[{]").match(text, name.end(), end) is None


def _start(expression: Expression, index: int, default: int) -> int:
    """Where the text of a node's subtree starts, an opening bracket included ((x-1) at
    its "("); ``default`` where a --let definition's nodes are in it (their places are in
    its own text). A walk, not recursion."""
    nodes, text = expression.nodes, expression.text
    start, stack = nodes[index].position, [index]
    while stack:
        at = stack.pop()
        if at in expression.names:
            return default
        start = min(start, nodes[at].position)
        stack.extend(nodes[at].args)
    while start > 0 and text[start - 1] in _OPENING:
        start -= 1
    return start


def _factor_end(text: str, i: int) -> int | None:
    """Where the factor written from text[i] on (after spaces) ends: a number, a name, a
    call f(...) or a group (...), [...], {...} (x^{2}), with its powers; None where it is
    not one of those (the divisor in parentheses as a whole ends where they close, before
    no space). A root's sign is part of the factor it opens (1/√2 x, 1/√(x+1) y)."""
    root = re.compile(r"\s*[\u221a\u221b]").match(text, i)
    if root is not None:
        i = root.end()
    bars = re.compile(_BAR_OPENING).match(text, i)
    if bars is not None:
        return _powers_end(text, _closing_bar(text, bars.end()))
    match = re.compile(r"\s*(" + _with_marks(_ATOM, text) + ")?").match(text, i)
    i = match.end()
    if i < len(text) and text[i] in "([{":  # a group, or a call's arguments
        i = _closing(text, i)
    elif not match.group(1):
        return None
    return _powers_end(text, i)


def _powers_end(text: str, i: int | None) -> int | None:
    """Where a factor ending at text[i] ends with its powers (x^2, x², (x+1)^{n})."""
    while i is not None and i < len(text):
        if text[i] in _SUPERSCRIPTS:
            i += 1
        elif text[i] == "^":
            i = _factor_end(text, re.compile(r"\^\s*[-+−]?").match(text, i).end())
        else:
            break
    return i


# Bars around the divisor's first factor: |x|, \lvert x\rvert, \vert x\vert, \left| x\right|
_BAR_OPENING = r"\s*(?:\||\\(?:l?vert(?![^\W\d_])|left\s*\|))"
_BAR = r"\||\\(?:[lr]?vert(?![^\W\d_])|left\s*\||right\s*\|)"
# (what a factor ends with: a "|" after it closes bars, as the grammar reads them)
_AFTER_FACTOR = r"[\w.)\]}!\u00b2\u00b3\u00b9\u2070-\u2079]\s*\Z"


def _closing_bar(text: str, i: int) -> int | None:
    """Just after the bar that closes those opened just before text[i], None if none does.
    A "|" after a factor closes bars, anywhere else it opens new ones (|x - |y||), as the
    grammar reads them; \\lvert and \\left| open, \\rvert and \\right| close."""
    depth, closed, last = 1, False, i
    for bar in re.compile(_BAR).finditer(text, i):
        written, start = bar.group(), bar.start()
        if written.startswith(("\\l", "\\r")):
            closing = written.startswith("\\r")
        else:   # after a factor, or right after bars that closed
            closing = bool(re.search(_AFTER_FACTOR, text[last:start])) or (
                closed and not text[last:start].strip())
        depth += -1 if closing else 1
        closed, last = closing, bar.end()
        if depth == 0:
            return last
    return None


def _closing(text: str, i: int) -> int | None:
    """Just after the bracket that closes the one at text[i] (each closes its own kind),
    None if none does."""
    opening = text[i]
    pair = {opening: 1, {"(": ")", "[": "]", "{": "}"}[opening]: -1}
    depth = 0
    for j in range(i, len(text)):
        depth += pair.get(text[j], 0)
        if depth == 0:
            return j + 1
    return None


# A function written without brackets, its argument a number, π or a number times π, then
# '/': ln 1/x, sin π/6, cos 2π/3, \sin^2\pi/6, log_2 1/x. The function takes its argument up
# to the '/' (ln(1)/x), which is almost never meant; sin x/2 (a variable's argument) is
# sin(x)/2 as often meant as not: not said. The text is searched backwards, from each '/'
# (a literal, which re finds at C speed: ~25 ms a MB, a third of _SPACED's look, where a
# pattern starting at a name's letters took 300), so these are the reversed forms: "6/π
# nis" is sin π/6. The number is any run of digits and points (one repeat, the fastest re
# has): the nodes check it.
_RAISED = "\u00b2\u00b3\u00b9\u2070-\u2079\u207a\u207b"    # (a power: ², ⁻¹)
# A number is glued only to a command (\sin2), a raised power (sin²2) or braces (log_{10}1):
# sin2 is one name
_NUMBER_BACKWARD = r"[\d.]+(?=[\s}" + _RAISED + r"]|[^\W\d_]+\\)"
_OF_NUMBER_BACKWARD = r"/\s*(?P<argument>" + _NUMBER_BACKWARD + r"|(?:[" + PI_FORMS + \
    r"]|ip\\?)(?:\s*" + _NUMBER_BACKWARD + r")?)\s*" \
    r"(?:(?:\}[^{}]*\{|\)[^()]*\(|\d+[-\u2212]?)\s*\^\s*|[" + _RAISED + r"]+)?" \
    r"(?:(?:\}[^{}]*\{|[^\W_]+)_)?" \
    r"(?P<name>[^\W\d_" + _RAISED + PI_FORMS + r"]+)(?:\\(?!\\)|(?![^\W\d]|\\))"
# (the argument: a number, π, pi or \pi, or a number times π; the function's power, sin^2,
# sin^{-1}, sin^(-1), sin², its subscript, log_2, log_{10}, and its name: a command may follow
# anything, x\sin 1/x, a name no letter; π ends a name, sinπ/6)
_ROOT_CALLS = ("sqrt", "cbrt")   # sqrt 2/2 is √2/2, as on paper: the bar covers the 2 alone


def _may_hold_a_function_of_one(text: str) -> bool:
    """Cheaply, whether before some '/' a number, π or both follow a letter, a power or a
    subscript, as a function's argument does (ln 1/x, not x + 1/x nor x^2/2): the pattern,
    ~1 ms to compile, is not on a plain run's path. (A long text is left to it.)"""
    if len(text) > 10_000:
        return True
    for piece in text.split("/")[:-1]:
        written = piece.rstrip()
        rest = written.rstrip(PI_FORMS)
        if rest == written and written.endswith("pi"):
            rest = written[:-2].rstrip("\\")
        pi = len(rest) < len(written)
        rest = rest.rstrip().rstrip("0123456789.").rstrip()
        # (isalnum: ², a power, too; "}" or ")" may close a power or a subscript, log_{10}
        # 1/x, sin^(-1) 1/2; before π, a number may be a power's or a subscript's,
        # sin^2 π, sin^-1 π, log_2 π, where x^2/2 has none)
        if len(rest) < len(written) and rest and (
                rest[-1].isalnum() or rest[-1] in "})" or pi and rest[-1] in "^-\u2212_"):
            return True
    return False


def _function_of_number(expression: Expression, covered: set) -> dict[str, OtherReading]:
    """ln 1/x is ln(1)/x by the rules (a function without brackets takes its argument up to
    the next operator), almost never meant: said, with ln(1/x) as the reading likely meant
    (the division in the argument, up to the next function: ln 1/x sin x, ln(1/x) sin x).
    The place of each division said goes into ``covered``."""
    from .reader import is_function_name

    text, places = expression.text, {}
    n = len(text)
    for match in re.finditer(_OF_NUMBER_BACKWARD, text[::-1]):
        if is_function_name(match.group("name")[::-1]):
            places[n - 1 - match.start()] = (n - match.end(), n - match.end("argument"))
            if len(places) == LOOKED_AT:
                break
    said, left = {}, len(places)
    for node in expression.nodes if places else ():
        if node.name == "div" and node.kind == "infix" and node.position in places:
            if _of_number_at(expression, node, *places[node.position], said):
                covered.add(node.position)
            left -= 1
            if len(said) == CAUTIONS or not left:
                break
    return said


def _of_number_at(expression: Expression, div, start: int, opened: int, said: dict) -> bool:
    """The caution of the function written from text[start], its argument from
    text[opened] up to the '/' of ``div``, and its other reading, into ``said``; nothing
    where the function read is not that one (x1/2, sin(1)/x, sqrt 2/2). Whether one was."""
    nodes, text = expression.nodes, expression.text
    head = _last_factor(nodes, div.args[0])
    call = nodes[head].args[0] if nodes[head].name == "pow" and nodes[head].kind == "infix" \
        else head
    if nodes[call].kind != "call" or nodes[call].position != start or \
            nodes[call].name in _ROOT_CALLS or len(nodes[call].args) != 1 or \
            nodes[head].position != start or \
            _start(expression, nodes[call].args[0], -1) != opened:
        return False
    argument = nodes[nodes[call].args[0]]
    if argument.kind == "number" and argument.value != 1 and \
            not _rarely_meant(nodes, div.args[1], nodes[call].name):
        return False  # ln 2/ln x (a change of base), x ln 2/2: a constant, as often meant as not
    end, spaced = _argument_end(expression, div)
    if end is None:
        return False
    inner = text[opened:end]
    if spaced is not None:   # sin 1/2 x: sin((1/2)*x), as 1/2 x is likely meant (1/2)*x
        inner = f"{text[opened:spaced]}*{text[spaced:end].lstrip()}"
    write = f"{text[start:opened].rstrip()}({inner.strip()})"
    meant = _meant(expression, write, head != call)
    if meant is None:
        return False
    written = text[start:end].strip()
    caution = (f"{written}: a function written without parentheses takes its argument up to "
               f"the next operator, so this is {render(nodes, root=head)}, and "
               f"/{_shown(expression, div.args[1])} divides after it; for {meant}, write {write}")
    if caution not in said:  # (the text is copied once for each: it may be 1 MB)
        said[caution] = OtherReading(written, meant, f"{text[:opened]}({inner}){text[end:]}")
    return True


def _rarely_meant(nodes: list, index: int, function: str) -> bool:
    """Whether f(a number other than 1)/divisor is rarely meant as read: not where the
    divisor starts with a function (ln 2/ln x, a change of base) nor for a logarithm over
    a divisor without a variable (x ln 2/2, a constant factor); sin^-1 1/2 and sin 2/x are."""
    first = index
    while nodes[first].kind == "infix":
        first = nodes[first].args[0]
    if nodes[first].kind == "call":
        return False
    return function not in ("ln", "log", "log10", "log2") or _of_a_variable(nodes, index)


def _of_a_variable(nodes: list, index: int) -> bool:
    """Whether a node's subtree holds a variable (or a --let name)."""
    stack = [index]
    while stack:
        node = nodes[stack.pop()]
        if node.kind in ("variable", "ref"):
            return True
        stack.extend(node.args or ())
    return False


def _shown(expression: Expression, index: int) -> str:
    """A node as an operand, a --let definition by its name (ln 1/F: /F, not /(x + 1))."""
    return expression.names.get(index) or _operand(expression.nodes, index)


def _meant(expression: Expression, write: str, power: bool) -> str | None:
    """``write`` (sin(π/6), sin^2(π/6)) as read, where it is the function (with its power)
    of an argument holding a division; else None (the end of the argument was not found
    right: that reading is not offered). Read alone: the whole text may be 1 MB."""
    try:
        nodes = _nodes(write, frozenset(expression.names.values()), hint=False)
    except ExpressionError:
        return None
    root = nodes[-1]
    call = root.args[0] if power and root.name == "pow" and root.kind == "infix" else \
        len(nodes) - 1
    if nodes[call].kind != "call" or nodes[call].position != 0:
        return None
    argument = nodes[call].args[0]
    while nodes[argument].name == "mul":    # sin(1/2*x): (1/2)*x
        argument = nodes[argument].args[0]
    return render(nodes) if nodes[argument].name == "div" else None


def _last_factor(nodes: list, index: int) -> int:
    """The factor written last in a product or a divisor (2 sin π, -sin π, 1/2 cos π: the
    function), where a function without brackets would stand."""
    while nodes[index].kind == "prefix" or nodes[index].name in ("mul", "div") and \
            nodes[index].kind == "infix":
        index = nodes[index].args[-1]
    return index


def _argument_end(expression: Expression, div) -> tuple[int | None, int | None]:
    """Where the argument likely meant ends after '/': the divisor as read, up to a
    function after its first factor (ln 1/x sin x: at x); and where that first factor
    ends if a space follows it there (sin 1/2 x), else None. None where the end is not
    known (a --let name's nodes)."""
    text = expression.text
    first_end = _factor_end(text, div.position + 1)
    if first_end is None:
        return None, None
    factors, first = _run_after(expression, div.args[1], first_end)
    if _bare_function(text, div.position + 1, first_end):   # ln 1/sin x: up to its x
        first_end = _subtree_end(expression, first)
        if first_end is None:
            return None, None
    end = first_end
    for factor in reversed(factors):
        start = _start(expression, factor, -1)
        if start < 0:
            return None, None
        if _opens_function(text, start):
            break
        end = _factor_end(text, start)
        if end is None:
            return None, None
    spaced = end != first_end and _spaced_at(text, first_end)
    return end, first_end if spaced else None


def _subtree_end(expression: Expression, index: int) -> int | None:
    """Where the factor last written in a node's subtree ends (sin x: after the x; a
    bracket it is in may be left out: _meant then finds no such reading). A walk."""
    nodes, last, stack = expression.nodes, index, [index]
    while stack:
        at = stack.pop()
        if at in expression.names:
            return None
        last = max(last, at, key=lambda i: nodes[i].position)
        stack.extend(nodes[at].args)
    return _factor_end(expression.text, nodes[last].position)


def _opens_function(text: str, start: int) -> bool:
    """Whether the factor written from text[start] is a function's (sin x, \\ln x, √x)."""
    from .reader import ROOT_SIGNS, is_function_name

    name = re.compile(r"\\?(" + _NAME + ")").match(text, start)
    return text[start:start + 1] in ROOT_SIGNS or \
        name is not None and is_function_name(name.group(1))


def _powers(expression: Expression) -> list[str]:
    text = expression.text
    # (the first few of each: a base is rendered from the node list for each one met)
    over = {m.start(): m for m in itertools.islice(re.finditer(_POWER_OVER, text), LOOKED_AT)}
    glued = {m.start(): m for m in itertools.islice(re.finditer(_with_marks(_GLUED, text),
                                                                text), LOOKED_AT)}
    if not over and not glued:
        return []
    nodes, said = expression.nodes, {}   # (a dict: x^1/2 + x^1/2 is said once)
    for node in nodes:
        if node.name != "pow" or node.kind != "infix" or (
                node.position not in over and node.position not in glued):
            continue  # (a base is rendered only for a power a reading matched)
        base = node.args[0]
        b = _operand(nodes, base, power=True)
        match = over.get(node.position)
        if match is not None and nodes[node.args[1]].kind in ("number", "prefix"):
            sign = "-" if (match.group(2) or match.group(4)) in ("-", "−") else ""
            k, n = match.group(3) or match.group(5), match.group(6)
            said.setdefault(f"{b}^{sign}{k}/{n}: the power is {b}^{sign}{k}, and /{n} divides "
                            f"after it (a power comes before a division); for {b} to the "
                            f"power {sign}{k}/{n}, write {b}^({sign}{k}/{n})",
                            _exponent_grouped(text, match, b, f"{b}^{sign}{k}/{n}"))
        match = glued.get(node.position)
        if match is not None and nodes[base].kind in ("constant", "number") \
                and _glued_factor(match.group(3)):
            end = _glued_run_end(text, match)
            k, name = "".join(match.group(2).split()).replace("−", "-"), text[match.start(3):end]
            said.setdefault(f"{b}^{k}{name}: the power is {b}^{k}, and {name} multiplies after it "
                            f"(an exponent is one factor); for {b} to the power {k}{name}, "
                            f"write {b}^({k}{name})",
                            _exponent_grouped(text, match, b, f"{b}^{k}{name}", end))
    return dict(itertools.islice(said.items(), CAUTIONS))


def _glued_factor(name: str) -> bool:
    """Whether ``name``, glued to a power's number (e^2x, e^2\\theta), is a factor of
    its own: a name or a Greek letter's command, not a function (e^2\\sin x, e^2sin x)."""
    from .expression import LATEX_LETTERS
    from .reader import is_function_name

    if name[0] == "\\":
        return name[1:] in LATEX_LETTERS
    return not is_function_name(name)


# A factor glued on after the first (e^2\pi\omega t: \omega, then t, which TeX sets against
# it: a command's space only ends its name)
_GLUED_MORE = r"[" + PI_FORMS + r"]|\\[A-Za-z]+|[^\W\d_]\w*"


def _glued_run_end(text: str, match) -> int:
    """Where the run of factors glued to a power's number (``match``) ends: e^2\\pi\\omega t
    shows as e^2πωt, the whole run as likely the exponent meant as its first factor; each
    factor with its power (e^-2\\alpha x^2 is e^(-2\\alpha x^2) meant, not e^(-2\\alpha x)^2)."""
    end, more = _powers_end(text, match.end()) or match.end(), re.compile(_GLUED_MORE)
    while True:
        spaces = re.compile(r"\s*").match(text, end).end() if text[end - 1:end].isalpha() \
            and re.search(r"\\[A-Za-z]+\Z", text[:end]) else end
        found = more.match(text, spaces)
        if found is None or not _glued_factor(found.group()):
            return end
        end = _powers_end(text, found.end()) or found.end()


def _exponent_grouped(text: str, match, base: str, written: str,
                      end: int | None = None) -> OtherReading:
    """x^1/2 read as x^(1/2), e^2x as e^(2x): the exponent ``match`` found (up to ``end``,
    a run of factors glued on) in parentheses."""
    end = match.end() if end is None else end
    exponent = "".join(text[match.end(1):end].split())
    grouped = f"{text[:match.end(1)]}({text[match.end(1):end]}){text[end:]}"
    return OtherReading(written, f"{base}^({exponent})", grouped)


def define(texts: Mapping[str, str]) -> Definitions:
    """Definitions (name -> text) parsed and checked once, for ``parse(text, definitions)``
    of several expressions."""
    return Definitions(texts, _nodes)


def _nodes(text: str, definitions=frozenset(), hint: bool = True, said=None) -> list:
    """The flat node list of one text; names in ``definitions`` become "ref" nodes.
    ``said``, a list, gets the reader's cautions (adcli.reader.Builder.said)."""
    with _lock:
        try:
            try:
                nodes, syntax = _read(text, definitions)
            except ExpressionError as error:
                syntax = _misplaced_command(text, error.position, definitions)
                if syntax is None:
                    raise
                nodes = None
            if nodes is not None and said is not None:
                said.extend(_builder.said)
        finally:
            _builder.reset("")
    if nodes is not None:
        if not text.isascii() and _HIDDEN_IN_NAME.search(text):
            _refuse_invisible(text, nodes)
        return nodes
    hints = (_relation_hint(text, syntax), _bars_hint(text, definitions),
             _equation_hint(text, definitions, syntax), _prime_hint(text, syntax),
             _open_hint(text, syntax)) if hint else ()
    raise next((h for h in hints if h is not None), syntax)


# (A name is read in NFKC form, which makes the Hangul filler U+3164 the jungseong filler
# U+1160: one that follows no leading consonant, of which it would make a syllable)
_HIDDEN_IN_NAME = re.compile(f"{INVISIBLE.pattern}|(?<![\u1100-\u115f])\u1160")


def _refuse_invisible(text: str, nodes: list) -> None:
    """A name holding a character that shows as nothing (errors.INVISIBLE) refused where
    that stands: x\ufe0f would be a variable of its own beside x, looking the same. (One
    in LaTeX's \\text{...} or \\label{...}, read as no part of the maths, is left alone.)"""
    for node in nodes:
        if node.name and _HIDDEN_IN_NAME.search(node.name):
            found = _HIDDEN_IN_NAME.search(text, node.position) or _HIDDEN_IN_NAME.search(text)
            shown = found.group().encode("unicode_escape").decode("ascii")
            raise ExpressionError(f"unexpected invisible character '{shown}' in a name: "
                                  "delete it", text, found.start())


def _open_hint(text: str, syntax: ExpressionError) -> ExpressionError | None:
    """A text that ends with a bracket or bar still open: refused at it, not at the end."""
    from .reader import never_closed

    return never_closed(text) if syntax.message.startswith("unexpected end of") else None


def _read(text: str, definitions) -> tuple[list | None, ExpressionError | None]:
    """The node list of one text, or the syntax error that keeps it from being read (the
    reader raises its own errors); under the lock."""
    _builder.reset(text, definitions)
    try:
        return _builder.finish(_parser().parse(text)), None
    except lalr.Rejected:
        _builder.reset(text, definitions)
        result = _parse_with_lark(text)
        if isinstance(result, ExpressionError):
            return None, result
        return _builder.finish(result), None


# Commands the grammar reads only in some places: where an operand stands, they are lexed as
# a name, which the reader refuses as a command it does not read at all ("LaTeX's \cdot is
# not read here", though it is read).
_OPERATOR_COMMAND = r"\\(?:cdot|times|div)(?![^\W\d_])"
# The fonts the grammar reads a name in (its _TEX_FONT: _font_named; a test checks these
# are its fonts)
_FONT_EXAMPLES = {"operatorname": "a function's name in braces, as in \\operatorname{sech}(x)",
                  "mathrm": "a name in braces, as in \\mathrm{e}",
                  "mathit": "a name in braces, as in \\mathit{x}"}
_FONT_COMMAND = r"\\(" + "|".join(_FONT_EXAMPLES) + r")(?![^\W\d_])"


def _misplaced_command(text: str, position: int, definitions) -> ExpressionError | None:
    """The error the reader's refusal at text[position] deserves, if a command it reads
    is there: x + \\cdot y, a syntax error, as x + · y is; \\operatorname{} takes a name.
    None for anything else."""
    font = re.compile(_FONT_COMMAND).match(text, position)
    if font is not None and not re.compile(_font_named()).match(text, position) \
            and not re.search(r"_\{?\s*\Z", text[:position]):  # (x_\operatorname: its own)
        return ExpressionError(f"LaTeX's {font.group()} takes {_FONT_EXAMPLES[font.group(1)]}",
                               text, position)
    operator = re.compile(_OPERATOR_COMMAND).match(text, position)
    return None if operator is None else _unexpected(text, operator, definitions)


def _unexpected(text: str, operator: re.Match, definitions) -> ExpressionError | None:
    """lark's syntax error for the operator command ``operator`` fed as the operator it is
    after the text before it (None where it could stand: the refusal was another's)."""
    from lark import Token
    from lark.exceptions import UnexpectedInput

    start = operator.start()
    try:
        _builder.reset(text, definitions)
        parser = _lark_parser().parse_interactive(text[:start])
        parser.exhaust_lexer()
    except (UnexpectedInput, ExpressionError):  # (the text before it: the refusal stands)
        return None
    try:
        parser.feed_token(Token("TEX_OP", operator.group(), start_pos=start))
    except UnexpectedInput as error:
        return _syntax_error(error, text)
    except ExpressionError:  # (a reduction the reader refuses: its own error stands)
        pass
    return None


_FACTOR_END = r"[\w.)|\u00b2\u00b3\u00b9\u2070-\u2079]\s*\Z"
_FACTOR_START = r"\s*[\w.(|\u221a\u221b]"   # (both for a hint only: re's cache compiles them)


def _bars_hint(text: str, definitions) -> ExpressionError | None:
    """Between bars, a "|" after a factor closes them, so "|x |y||" fails. If a "*" before
    one such "|" makes the text parse, say so, with the caret there."""
    if "|" not in text or len(text) > 2000:
        return None
    for position in [p for p, c in enumerate(text) if c == "|"][:50]:
        if not (re.search(_with_marks(_FACTOR_END, text), text[:position])
                and re.compile(_FACTOR_START).match(text, position + 1)):
            continue
        fixed = text[:position] + "*" + text[position:]
        try:
            _nodes(fixed, definitions, hint=False)
        except ExpressionError:
            continue
        shown = fixed if len(fixed) <= 40 else "…" + fixed[max(0, position - 20):position + 20] + "…"
        return ExpressionError("between bars, a '|' after a factor closes them; to multiply by "
                               f"new bars, insert '*': {shown}", text, position)
    return None


# y, f(x), g(x, y); as LaTeX writes them: \gamma, B_{\lambda}, \mathrm{KE}, B_\lambda(\lambda, T)
_GREEK = r"\\(?:" + "|".join(LATEX_LETTERS) + r")(?![A-Za-z])"
_LEFT_NAME = (r"(?:[^\W\d][\w]*|" + _GREEK
              + r"|\\(?:mathrm|mathit|operatorname)\s*\{\s*[\w]+\s*\})"
              + r"(?:_?\{\s*(?:[\w]+|" + _GREEK + r")\s*\}|_?" + _GREEK + ")*")
_LEFT_SIDE = (r"\s*" + _LEFT_NAME + r"(\s*(?:\\left\s*)?\((?:[\w\s,]|" + _GREEK
              + r")*(?:\\right\s*)?\))?\s*\Z")


def _equation_hint(text: str, definitions, syntax: ExpressionError) -> ExpressionError | None:
    """``y = x^2`` or ``f(x) = x^2``, copied from paper: say to give the right-hand side
    alone (when it parses), with the caret on the "=". Math delimiters around it ($y =
    x^2$, \\[ ... \\], an equation environment) are seen through, blanked out in place."""
    from .reader import without_math

    try:
        plain = without_math(text)
    except ExpressionError:     # (a stray delimiter: the parser's own error says more)
        return None
    # (a left side may be refused before its "=": B_\lambda(\lambda, T) is a product there)
    position = plain.find("=")
    if position < syntax.position \
            or not re.match(_with_marks(_LEFT_SIDE, plain), plain[:position]):
        return None
    right = plain[position + 1:].strip()
    try:
        _nodes(right, definitions, hint=False)
    except ExpressionError:
        return None
    left = plain[:position].strip()
    return ExpressionError(f"an expression is wanted, not an equation: give the right-hand "
                           f"side alone, {quote(right, None)}, without {quote(left + ' =')}",
                           text, position)


def _relation_hint(text: str, syntax: ExpressionError) -> ExpressionError | None:
    """f'(x) ≈ 2x, y' \\Rightarrow 2x: a relation where '=' was meant, which the parser
    may not reach (it stops at the prime before it): named, with the caret on it."""
    found = re.compile(RELATION).search(text, syntax.position)
    return None if found is None else relation_error(text, found.start(), found.group())


def _prime_hint(text: str, syntax: ExpressionError) -> ExpressionError | None:
    """f'(x), x'': a prime is a derivative on paper; here it is a character no expression
    has. Say how a derivative is written, with the caret on the prime."""
    position = syntax.position
    primes = ("'", "\u2018", "\u2019", "\u02bc", "\u2032", "\u2033")
    end = position
    while text[end:end + 1] in primes:
        end += 1
    after = text[end:end + 1]
    if end == position or position == 0 \
            or not (text[position - 1].isalnum() or text[position - 1] in ")_") \
            or not (after == "" or after.isspace() or after in "()+-*/^=,|"):
        return None  # 'a' and f'{x}' hold quotation marks, not primes
    return ExpressionError("a prime (') is not a derivative here: give the function itself "
                           "(grad differentiates it) or write diff(f, x) inside an expression",
                           text, position)


def is_name(text: str) -> bool:
    """Whether ``text`` is a name of the language (a variable or a constant): the grammar
    decides, so --at, --wrt and points files agree with expressions (``x²`` is not one).
    The name it stands for is ``normal_name(text)`` (x₁ is x1)."""
    try:
        nodes = parse(text).nodes
    except ExpressionError:
        return False
    return len(nodes) == 1 and nodes[0].kind in ("variable", "constant") \
        and nodes[0].name == normal_name(text)


def _parse_with_lark(text: str):
    """lark's parse of a text the tables rejected, or its syntax error, with a caret."""
    from lark.exceptions import UnexpectedInput

    try:
        return _lark_parser().parse(text)
    except UnexpectedInput as error:
        return _syntax_error(error, text)


def _syntax_error(error, text: str) -> ExpressionError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    if isinstance(error, UnexpectedCharacters):
        position = error.pos_in_stream
        what = f"unexpected character {text[position]!r}"
        if "\udc80" <= text[position] <= "\udcff":   # a byte surrogateescape kept
            return ExpressionError(f"a byte that is not UTF-8 text ({escape(text[position])})",
                                   text, position)
        look_alike = _look_alike(text, position)
        if look_alike is not None:
            return ExpressionError(look_alike, text, position)
    elif isinstance(error, UnexpectedToken) and error.token.type == "$END":
        position, what = len(text.rstrip()), "unexpected end of expression"
    elif isinstance(error, UnexpectedToken):
        position, what = error.token.start_pos, f"unexpected {_describe(error.token)}"
    else:
        position, what = getattr(error, "pos_in_stream", 0) or 0, "syntax error"
    raised = _raised_point(text, position)
    if raised is not None:
        return raised
    if position < len(text) and text[position] in _SUPERSCRIPTS:
        said = _raised_out_of_place(text, position)
        if said is not None:
            return ExpressionError(said, text, position)
    if text[position:position + 1] == "!":  # x!, (n+1)!, 3!!: no gamma function for them
        return ExpressionError("a factorial is read after a whole number only (3!), once: "
                               "there is no factorial of a variable or expression", text,
                               position)
    if "TEX_DIGIT" in _acceptable(error):  # \sqrt[3]-x, \sin^|x|: TeX takes one token
        return ExpressionError(f"{what}; {_one_token(text, position)}", text, position)
    order = list(dict.fromkeys(_EXPECTED.values()))
    wanted = sorted({_EXPECTED[name] for name in _acceptable(error) if name in _EXPECTED},
                    key=order.index)
    if wanted:
        what += "; expected " + (", ".join(wanted[:-1]) + " or " if len(wanted) > 1 else "") + wanted[-1]
    return ExpressionError(what, text, position)


# Characters a word processor or a keyboard gives for an operator: what each one is, and
# the one to write (fullwidth forms, ＋ and （, are found by their NFKC form).
_LOOK_ALIKES = {"\u2013": ("an en dash", "-"), "\u2014": ("an em dash", "-"),
                "\u2010": ("a hyphen", "-"), "\u2011": ("a non-breaking hyphen", "-"),
                "\u2217": ("an asterisk operator", "*"), "\u2215": ("a division slash", "/"),
                "\u2044": ("a fraction slash", "/"), "\u2219": ("a bullet operator", "*"),
                "\u2022": ("a bullet", "*"), "\u2064": ("an invisible plus", "+"),
                "\u2063": ("an invisible separator, or comma", ",")}
# (Word's invisible separator stands between indices as often as between arguments)
_LOOK_ALIKES_SAY = {"\u2063": " between a function's arguments, or leave it out"}
_OPERATOR_CHARACTERS = "+-*/^()[]{}|,!"


def _look_alike(text: str, position: int) -> str | None:
    """What to say of a character that looks like an operator or a bracket but is none
    (x – 1, x＋1, （x+1）, ∜x): its name and what to write; None for any other."""
    import unicodedata

    c = text[position]
    if c == "\u221c":  # (a fourth root has no character of its own here)
        radicand = re.compile(r"\s*(\([^()]*\)|[\w.]+)").match(text, position + 1)
        x = radicand.group(1) if radicand else "x"
        inside = x[1:-1] if x[0] == "(" else x
        return f"'{c}' (a fourth root) is not read: write {x}^(1/4), or \\sqrt[4]{{{inside}}}"
    what, meant = _LOOK_ALIKES.get(c, (None, None))
    plain, form = unicodedata.normalize("NFKC", c), unicodedata.decomposition(c)
    if c in _SCRIPT_SIGNS:
        return _script_sign(c, plain, form)
    if c in "⁽⁾":   # x⁽²⁾: a power's brackets raised
        from .reader import power_meant

        power = power_meant(text, position)
        shown = f": {power}" if power and power.count("(") == power.count(")") else ""
        return f"'{c}' (a superscript '{plain}') is not read: write the power with '^'{shown}"
    if what is None and plain in _OPERATOR_CHARACTERS and form.startswith(("<wide>", "<small>")):
        kind = "fullwidth" if form.startswith("<wide>") else "small"
        what, meant = f"a {kind} '{plain}'", plain
    if what is None:
        return None
    return f"'{escape(c)}' ({what}) is not read: write '{meant}'{_LOOK_ALIKES_SAY.get(c, '')}"


# Signs raised or lowered, as Word types them in a superscript or a subscript (x⁼1, 2₊x):
# a raised sign is read only before superscript digits (x⁻¹), a lowered one never
_SCRIPT_SIGNS = "⁺⁻⁼₊₋₌₍₎"


def _script_sign(c: str, plain: str, form: str) -> str:
    """What to say of a raised or lowered sign where none is read: its name, and what to
    write. (The words "unexpected character" stay first: it is one, where it stands.)"""
    kind = "superscript" if form.startswith("<super>") else "subscript"
    plain = plain.replace("\u2212", "-")   # (⁻ and ₋ are Unicode's minus)
    said = f"unexpected character '{c}' (a {kind} '{plain}'): "
    if plain == "=":
        return said + "an expression has no '=' (give the right-hand side alone), and a " \
            "power or a subscript is written with '^' or '_' and plain characters"
    if kind == "superscript":
        return said + "write the power with '^', as in x^(-1) or x^(n+1)"
    if plain in "()":
        return said + "write a subscript with '_', as in x_{1}"
    return said + f"write '{plain}'"


def _raised_out_of_place(text: str, start: int) -> str | None:
    """A superscript the grammar cannot take: a sign after superscript digits (x²⁺¹, a
    power typed raised: the sign named, as x⁻ is) or a root's index raised before √ (³√x);
    None for any other."""
    from .reader import power_meant

    c = text[start]
    if c in "⁺⁻" and start and text[start - 1] in _SUPERSCRIPTS:
        power = power_meant(text, start)
        plain = "+" if c == "⁺" else "-"
        return (f"unexpected character '{c}' (a superscript '{plain}') after a raised "
                f"power: write the power with '^'" + (f", as in {power}" if power else ""))
    end = start
    while end < len(text) and text[end] in "⁰¹²³⁴⁵⁶⁷⁸⁹":
        end += 1
    if end == start or text[end:end + 1] != "√":
        return None
    from .reader import _SUPERSCRIPT_DIGITS

    n = text[start:end].translate(_SUPERSCRIPT_DIGITS)
    radicand = re.compile(r"\s*(\([^()]*\)|[\w.]+)").match(text, end + 1)
    x = radicand.group(1) if radicand else "x"
    inside = x[1:-1] if x[0] == "(" else x
    meant = {"2": f"√{x}", "3": f"∛{x}"}.get(n, f"{x}^(1/{n})")
    return (f"'{escape(text[start:end + 1])}' (a root's index, raised before √) is not read: "
            f"write {escape(meant)}, or \\sqrt[{n}]{{{escape(inside)}}}")


_POINTS = ".·⋅"    # a decimal point, or the dot a word processor raises with superscripts


def _raised_point(text: str, position: int) -> ExpressionError | None:
    """x⁰·⁵, x².⁵: a point between superscript digits, the decimal point of a power
    typed raised, which nothing reads so (· multiplies): what to write, the caret on the
    point whether the parser stopped there or at the digit after it; None for all else."""
    point = position - 1 if 0 < position < len(text) and text[position] in _SUPERSCRIPTS \
        else position
    if not (0 < point < len(text) - 1 and text[point] in _POINTS
            and text[point - 1] in _SUPERSCRIPTS and text[point + 1] in _SUPERSCRIPTS):
        return None
    from .reader import _SUPERSCRIPT_DIGITS, _base_before

    start, end = point - 1, point + 2
    while start > 0 and text[start - 1] in _SUPERSCRIPTS:
        start -= 1
    while end < len(text) and text[end] in _SUPERSCRIPTS:
        end += 1
    power = text[start:point].translate(_SUPERSCRIPT_DIGITS) + "." + \
        text[point + 1:end].translate(_SUPERSCRIPT_DIGITS)
    base = _base_before(text, start)
    meant = f": {base}^{power}" if base != "…" else f", as in x^{power}"
    return ExpressionError(f"'{text[point]}' between superscript digits is not a decimal "
                           f"point: write the power with '^'{meant}", text, point)


# A command that takes one token (TeX's argument without braces), just before it
_TAKES_ONE = r"(\\sqrt(?:\[[^\]]*\])?|\\[dt]?frac(?:\{[^{}]*\})?" \
    r"|\\\w+(?:_\w|_\{[^{}]*\})?\s*\^)\s*\Z"


def _one_token(text: str, position: int) -> str:
    """What to write where a command takes one token (\\sqrt[3] -x): TeX's braces."""
    head = re.search(_TAKES_ONE, text[:position])
    if head and not text[position:].strip():  # \frac{x}: nothing to repeat as the example
        two = re.fullmatch(r"\\[dt]?frac", head.group(1))
        return (f"{head.group(1)} needs {'two tokens' if two else 'one more token'} after it, "
                f"{'each ' if two else ''}a digit, a letter, a command or a group in braces, "
                f"as in {head.group(1)}{'{1}' if two else ''}{{2}}")
    meant = (text[position:].split() or ["x"])[0]
    example = f", as in {head.group(1)}{{{meant}}}" if head else ""
    return ("TeX takes one token here, a digit, a letter or a command: put what is meant "
            f"in braces{example}")


def _acceptable(error) -> set[str]:
    """The tokens that could really come next. LALR's own list over-approximates (it
    offers ',' outside any call), so ask the interactive parser, which tries each one."""
    try:
        return set(error.interactive_parser.accepts())
    except Exception:  # a trial reduction can fail for its own reasons: fall back
        return set(getattr(error, "expected", None) or getattr(error, "allowed", None) or ())


def _describe(token) -> str:
    kinds = {"NUMBER": "number", "NAME": "name", "CALL": "function call"}
    kind = kinds.get(token.type)
    shown = str(token).rstrip("(").rstrip() if token.type == "CALL" else str(token)
    return f"{kind} '{shown}'" if kind else f"'{shown}'"
