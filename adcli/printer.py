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
           names: dict[int, str] | None = None) -> str:
    """Fully parenthesised text of the node list (the last node is the root).
    ``symbols`` prints some operators otherwise, by primitive name: {"mul": "·"}.
    ``names`` maps the root node of each --let definition to its name: it is printed by
    name, and defined after the expression: ``diff(F, x) where F = (x^2) + (y^2)``."""
    symbols, names = symbols or {}, names or {}
    text = _render(nodes, len(nodes) - 1, symbols, names, defining=None)
    defined = [f"{name} = {_render(nodes, index, symbols, names, defining=index)}"
               for index, name in sorted(names.items())]
    return text + (" where " + ", ".join(defined) if defined else "")


def _render(nodes, root: int, symbols: dict[str, str], names: dict[int, str],
            defining: int | None) -> str:
    # Top down with a stack of node indices and literal pieces, pushed in reverse.
    pieces: list[str] = []
    append = pieces.append
    stack: list[int | str] = [root]
    push, pop = stack.append, stack.pop
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
        if kind == "number":
            append(format_number(node.value))
        elif kind == "variable" or kind == "constant":
            append(node.name)
        elif kind == "infix":
            left, right = node.args
            symbol = symbols.get(node.function.name, node.function.symbol) if symbols \
                else node.function.symbol
            _operand(push, nodes, right, names)
            # The loosest operators get spaces, as people write them: "x^2 + 1".
            push(f" {symbol} " if symbol in "+-" else symbol)
            _operand(push, nodes, left, names)
        elif kind == "prefix":
            _operand(push, nodes, node.args[0], names)
            push(symbols.get(node.function.name, node.function.symbol) if symbols
                 else node.function.symbol)
        else:  # call, diff
            push(")")
            args = node.args
            for n in range(len(args) - 1, 0, -1):
                push(args[n])
                push(", ")
            if args:
                push(args[0])
            push(node.name + "(")
    return "".join(pieces)


def _operand(push, nodes, i: int, names) -> None:
    """Push operand i, in parentheses if it is compound."""
    if nodes[i].kind in ("infix", "prefix") and i not in names:
        push(")")
        push(i)
        push("(")
    else:
        push(i)
