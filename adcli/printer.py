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
    pieces: list[str] = []
    stack: list[int | str] = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            pieces.append(item)
            continue
        node = nodes[item]
        if item in names and item != defining:
            pieces.append(names[item])
        elif node.kind == "number":
            pieces.append(format_number(node.value))
        elif node.kind in ("variable", "constant"):
            pieces.append(node.name)
        else:
            stack.extend(reversed(_layout(node, nodes, symbols, names)))
    return "".join(pieces)


def _layout(node, nodes, symbols: dict[str, str], names: dict[int, str]) -> list[int | str]:
    def operand(i):
        compound = nodes[i].kind in ("infix", "prefix") and i not in names
        return ["(", i, ")"] if compound else [i]

    if node.kind in ("call", "diff"):
        parts: list[int | str] = [node.name + "("]
        for n, arg in enumerate(node.args):
            parts += ([", "] if n else []) + [arg]
        return parts + [")"]
    symbol = symbols.get(node.function.name, node.function.symbol)
    if node.kind == "prefix":
        return [symbol, *operand(node.args[0])]
    left, right = node.args
    # The loosest operators get spaces, as people write them: "x^2 + 1".
    return [*operand(left), f" {symbol} " if symbol in "+-" else symbol, *operand(right)]
