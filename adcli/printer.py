"""Expression nodes back to text: the parser's inverse, shown as ``read as:``.

Every compound operand is put in parentheses, so the reading is never ambiguous. An
explicit stack replaces recursion: inputs may be 100,000 levels deep.
"""
from __future__ import annotations


def format_number(value: float) -> str:
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def render(nodes, symbols: dict[str, str] | None = None,
           names: dict[int, str] | None = None, root: int | None = None) -> str:
    """Fully parenthesised text of the node list (the last node is the root, or node
    ``root``: a part, read without copying the list before it).
    ``symbols`` prints some operators otherwise, by primitive name: {"mul": "·"}.
    ``names`` maps the root node of each --let definition to its name: it is printed by
    name, and defined after the expression: ``diff(F, x) where F = (x^2) + (y^2)``."""
    symbols, names = symbols or {}, names or {}
    text = _render(nodes, len(nodes) - 1 if root is None else root, symbols, names,
                   defining=None)
    defined = [f"{name} = {_render(nodes, index, symbols, names, defining=index)}"
               for index, name in sorted(names.items())]
    return text + (" where " + ", ".join(defined) if defined else "")


def as_operand(nodes, index: int, power: bool = False) -> str:
    """A node's text as an operand of * or / (or, with ``power``, a base of ^): in
    parentheses unless it is one piece (a power is one, except as a base)."""
    text = render(nodes, root=index)
    node = nodes[index]
    whole = node.kind in ("variable", "constant", "number", "call", "ref") or \
        (node.name == "pow" and not power)
    return text if whole else f"({text})"


def _render(nodes, root: int, symbols: dict[str, str], names: dict[int, str],
            defining: int | None) -> str:
    # Top down with a stack of node indices and literal pieces, pushed in reverse. A leaf
    # operand is pushed as its text, and each operator's text is worked out once: this
    # loop runs once per node of a 1 MB expression.
    pieces: list[str] = []
    append = pieces.append
    stack: list[int | str] = [root]
    push, pop = stack.append, stack.pop
    spelled: dict = {}  # function -> its text between operands, or before its operand
    while stack:
        item = pop()
        if item.__class__ is str:
            append(item)
            continue
        if names and item in names and item != defining:
            append(names[item])
            continue
        node = nodes[item]
        kind = node.kind
        if kind == "infix":
            spelling = spelled.get(node.function)
            if spelling is None:
                spelling = spelled[node.function] = _spellings(node.function, symbols)
            _infix(node.args, nodes, names, spelling, append, push)
        elif kind == "number":
            append(format_number(node.value))
        elif kind == "variable" or kind == "constant" or kind == "ref":
            append(node.name)  # (a ref: a --let name, in a caution the reader words)
        elif kind == "prefix":
            operand = node.args[0]
            _operand(push, nodes[operand], operand, names)
            push(_symbol(node.function, symbols, False))
        else:  # call, diff
            args = node.args
            append(node.name + "(")
            if len(args) == 1:  # most calls: no loop over their arguments
                operand = nodes[args[0]]
                text = _leaf_text(operand, args[0], names) if operand.kind in _LEAVES else None
                if text is None:
                    push(")")
                    push(args[0])
                else:  # sin(x): at once
                    append(text)
                    append(")")
                continue
            push(")")
            for n in range(len(args) - 1, 0, -1):
                push(args[n])
                push(", ")
            if args:
                push(args[0])
    return "".join(pieces)


def _spellings(function, symbols: dict[str, str]) -> tuple:
    """An operator's text between operands: as it is, after a ")", before a "(", and
    between the two."""
    symbol = _symbol(function, symbols, True)
    return symbol, ")" + symbol, symbol + "(", ")" + symbol + "("


def _infix(args, nodes, names, spelling, append, push) -> None:
    """Write out or push an infix node's pieces: "(" left ")" symbol "(" right ")", with
    parentheses only around compound operands. Everything before the node is out already,
    so what can be written now is (a name on the left, then the operator); the rest is
    pushed in reverse."""
    left, right = args
    lnode, rnode = nodes[left], nodes[right]
    lkind, rkind = lnode.kind, rnode.kind
    if names:  # a definition's root is printed by name, never in parentheses
        lkind = "" if left in names else lkind
        rkind = "" if right in names else rkind
    symbol, closed, opening, both = spelling
    rcompound = rkind == "infix" or rkind == "prefix"
    if lkind == "variable" or lkind == "constant":
        append(lnode.name)
        if rcompound:
            append(opening)
            push(")")
            push(right)
        else:
            append(symbol)
            if rkind == "variable" or rkind == "constant":
                append(rnode.name)
            elif rkind == "number":
                append(format_number(rnode.value))
            else:
                push(right)
        return
    if lkind == "infix" or lkind == "prefix":
        append("(")
        symbol, opening = closed, both
    if rcompound:
        push(")")
        push(right)
        push(opening)
    else:
        push(rnode.name if rkind == "variable" or rkind == "constant" else right)
        push(symbol)
    push(left)


def _symbol(function, symbols: dict[str, str], infix: bool) -> str:
    symbol = symbols.get(function.name, function.symbol) if symbols else function.symbol
    # The loosest operators get spaces, as people write them: "x^2 + 1".
    return f" {symbol} " if infix and symbol in "+-" else symbol


_LEAVES = ("variable", "constant", "number")


def _leaf_text(node, i: int, names) -> str | None:
    """The text of a variable, constant or number operand, else None (names: printed by name)."""
    kind = node.kind
    if names and i in names:
        return None
    if kind == "variable" or kind == "constant":
        return node.name
    if kind == "number":
        return format_number(node.value)
    return None


def _operand(push, node, i: int, names) -> None:
    """Push operand i (its node ``node``): in parentheses if it is compound, as its text
    if it is a name."""
    kind = node.kind
    if names and i in names:
        push(i)
    elif kind == "infix" or kind == "prefix":
        push(")")
        push(i)
        push("(")
    elif kind == "variable" or kind == "constant":
        push(node.name)
    else:
        push(i)
