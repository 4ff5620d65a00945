"""Text to Expression: loads grammar/expr.lark and reports syntax errors with a caret.

The LALR parser calls the builder below on every reduction, children first, so the nodes
come out already flat in evaluation order and no tree is ever walked recursively.
"""
from __future__ import annotations

import threading

from . import lalr
from .errors import ExpressionError, slip
from .expression import Expression, Node
from .functions import CALLABLE, CONSTANTS, OPERATORS, PRIMITIVES

_SUPERSCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻", "0123456789+-")
_EXPECTED = {"NUMBER": "a number", "NAME": "a name", "CALL": "a name", "LPAR": "'('",
             "ADD_OP": "an operator", "MUL_OP": "an operator", "POW_OP": "an operator", "SUPERSCRIPT": "an operator",
             "RPAR": "')'", "COMMA": "','", "$END": "the end"}


def _grammar_text() -> str:
    return lalr.grammar_text()


class _Builder:
    """Appends one Node per reduction; returns the node's index to the parent rule."""

    def __init__(self):
        super().__init__()
        self.text, self.nodes = "", []

    def _add(self, node: Node) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1

    def number(self, children):
        (token,) = children
        return self._add(Node("number", token.start_pos, value=float(token)))

    def name(self, children):
        (token,) = children
        name = str(token)
        if name in CALLABLE:
            raise ExpressionError(f"'{name}' is a function and needs arguments: {name}(...)",
                                  self.text, token.start_pos)
        kind = "constant" if name in CONSTANTS else "variable"
        return self._add(Node(kind, token.start_pos, name=name, value=CONSTANTS.get(name)))

    def call(self, children):
        token, arguments = children
        name = token.rstrip("(").rstrip()
        function = CALLABLE.get(name) or self._unknown(name, token.start_pos)
        if len(arguments) != function.arity:
            plural = "s" if function.arity > 1 else ""
            raise ExpressionError(
                f"{name}() takes {function.arity} argument{plural}, got {len(arguments)}",
                self.text, token.start_pos)
        return self._add(Node("call", token.start_pos, name=name, function=function,
                              args=tuple(arguments)))

    def arguments(self, children):
        return list(children)

    def binary(self, children):
        left, token, right = children
        function = OPERATORS[str(token)]
        return self._add(Node("infix", token.start_pos, name=function.name, function=function,
                              args=(left, right)))

    def implicit(self, children):
        left, right = (c if isinstance(c, int) else self.number([c]) for c in children)
        return self._add(Node("infix", self.nodes[right].position, name="mul",
                              function=PRIMITIVES["mul"], args=(left, right)))

    def superscript(self, children):
        base, token = children
        exponent = float(str(token).translate(_SUPERSCRIPT_DIGITS))
        power = self._add(Node("number", token.start_pos, value=exponent))
        return self._add(Node("infix", token.start_pos, name="pow",
                              function=PRIMITIVES["pow"], args=(base, power)))

    def unary(self, children):
        token, operand = children
        if token == "+":
            return operand
        return self._add(Node("prefix", token.start_pos, name="neg",
                              function=PRIMITIVES["neg"], args=(operand,)))

    def _unknown(self, name: str, position: int):
        if name in CONSTANTS:
            hint = f"'{name}' is a constant; to multiply, write {name}*(...)"
        elif (match := slip(name, CALLABLE)) is not None:
            hint = f"unknown function '{name}'; did you mean '{match}'?"
        else:
            hint = f"unknown function '{name}'; if '{name}' is a variable, write {name}*(...)"
        raise ExpressionError(hint, self.text, position)


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

        _lark = make_lark(_grammar_text(), transformer=_builder, cache=True)
    return _lark


def parse(text: str) -> Expression:
    """Parse an expression of the adcli language; raise ExpressionError on bad input."""
    if not text.strip():
        raise ExpressionError("the expression is empty", text, 0)
    with _lock:
        _builder.text, _builder.nodes = text, []
        try:
            _parser().parse(text)
        except lalr.Rejected:
            _builder.nodes = []
            _parse_with_lark(text)
        nodes, _builder.nodes = _builder.nodes, []
    return Expression(text, nodes)


def is_name(text: str) -> bool:
    """Whether ``text`` is a name of the language (a variable or a constant): the grammar
    decides, so --at, --wrt and points files agree with expressions (``x²`` is not one)."""
    try:
        nodes = parse(text).nodes
    except ExpressionError:
        return False
    return len(nodes) == 1 and nodes[0].kind in ("variable", "constant") and nodes[0].name == text


def _parse_with_lark(text: str) -> None:
    from lark.exceptions import UnexpectedInput

    try:
        _lark_parser().parse(text)
    except UnexpectedInput as error:
        raise _syntax_error(error, text) from None


def _syntax_error(error, text: str) -> ExpressionError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    if isinstance(error, UnexpectedCharacters):
        position = error.pos_in_stream
        what = f"unexpected character {text[position]!r}"
    elif isinstance(error, UnexpectedToken) and error.token.type == "$END":
        position, what = len(text.rstrip()), "unexpected end of expression"
    elif isinstance(error, UnexpectedToken):
        position, what = error.token.start_pos, f"unexpected {_describe(error.token)}"
    else:
        position, what = getattr(error, "pos_in_stream", 0) or 0, "syntax error"
    order = list(dict.fromkeys(_EXPECTED.values()))
    wanted = sorted({_EXPECTED[name] for name in _acceptable(error) if name in _EXPECTED},
                    key=order.index)
    if wanted:
        what += "; expected " + (", ".join(wanted[:-1]) + " or " if len(wanted) > 1 else "") + wanted[-1]
    return ExpressionError(what, text, position)


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
