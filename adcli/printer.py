"""Expression nodes back to text: the parser's inverse, shown as ``read as:``.

Every compound operand is put in parentheses, so the reading is never ambiguous. An
explicit stack replaces recursion: inputs may be 100,000 levels deep.
"""
from __future__ import annotations


def format_number(value: float) -> str:
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def render(nodes, symbols: dict[str, str] | None = None) -> str:
    """Fully parenthesised text of the node list (the last node is the root).
    ``symbols`` prints some operators otherwise, by primitive name: {"mul": "·"}."""
    pieces: list[str] = []
    stack: list[int | str] = [len(nodes) - 1]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            pieces.append(item)
            continue
        node = nodes[item]
        if node.kind == "number":
            pieces.append(format_number(node.value))
        elif node.kind in ("variable", "constant"):
            pieces.append(node.name)
        else:
            stack.extend(reversed(_layout(node, nodes, symbols or {})))
    return "".join(pieces)


def _layout(node, nodes, symbols: dict[str, str]) -> list[int | str]:
    def operand(i):
        compound = nodes[i].kind in ("infix", "prefix")
        return ["(", i, ")"] if compound else [i]

    if node.kind == "call":
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
