"""Named sub-expressions (``--let F="x^2 + y^2 - 1"``) and linking them into an expression.

Each definition is parsed on its own, with the names of the others read as references
("ref" nodes). Linking puts a used definition's nodes into the expression once, before its
first use, and points every use at its root node, so a definition used twice is evaluated
once (the node list is then a graph, not a tree) and the nodes stay of the usual kinds.
A definition may use the others (in any order) but not itself, directly or through a
cycle. Nothing here recurses.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from .errors import ExpressionError, ValuesError
from .expression import Expression, Node, normal_name
from .functions import CONSTANTS


def unused(definitions: "Definitions | None", given: str = "--let {}") -> list[str]:
    """Warnings of the definitions no expression used: a --let F=... with f written
    instead of F is likely a slip, and would go unseen. ``given``: how the user gave one
    (the API's ``definitions[{!r}]``)."""
    if definitions is None:
        return []
    return [f"{given.format(name)}: {name} is not used by the expression"
            for name in definitions.texts if name not in definitions.linked]


def from_pairs(pairs: Iterable[str]) -> dict[str, str]:
    """``["F=x^2+1", "G=2F"]`` (the CLI's --let values) as ``{"F": "x^2+1", "G": "2F"}``."""
    definitions: dict[str, str] = {}
    for pair in pairs:
        name, equals, text = pair.partition("=")
        name = name.strip()
        if not equals or not name:
            raise ValuesError(f"--let {pair!r}: expected NAME=EXPRESSION, as in --let F=\"x^2+1\"")
        if name in definitions:
            raise ValuesError(f"--let {name}: '{name}' is defined twice")
        definitions[name] = text
    return definitions


class Definitions:
    """Definitions parsed and checked once; ``link`` puts the used ones into an expression.
    ``read(text, names)`` is the parser's: a text's node list, with ``names`` as refs."""

    def __init__(self, texts: Mapping[str, str], read):
        for name in texts:
            _check_name(name, read)
        self.texts = {normal_name(name): text for name, text in texts.items()}
        self.names = frozenset(self.texts)
        self.said: dict[str, list[str]] = {}   # what the reader said of each (1e999 is inf)
        self.nodes = {name: self._read(name, read) for name in self.texts}
        self._cautions: dict[str, list[str]] = {}
        self.order = self._dependency_order()
        self.linked: set[str] = set()   # the definitions link put in, in any expression

    def _read(self, name: str, read) -> list:
        text = self.texts[name]
        try:
            if not text.strip():
                raise ExpressionError("the definition is empty", text, 0)
            said = self.said[name] = []
            return read(text, self.names, said=said)
        except ExpressionError as error:
            raise ExpressionError(f"in the definition of {name}: {error.message}",
                                  error.text, error.position) from None

    def _uses(self, name: str) -> list:
        """The ref nodes of a definition, in text order."""
        return [node for node in self.nodes[name] if node.kind == "ref"]

    def _dependency_order(self) -> list[str]:
        """Every definition after those it uses (a depth-first walk with an explicit
        stack); a definition that uses itself, directly or not, is an error."""
        order, done, path = [], set(), []
        for first in self.texts:
            if first in done:
                continue
            stack = [(first, iter(self._uses(first)))]
            path.append(first)
            while stack:
                name, uses = stack[-1]
                ref = next(uses, None)
                if ref is None:
                    stack.pop()
                    path.pop()
                    done.add(name)
                    order.append(name)
                elif ref.name in path:
                    self._cycle(name, ref, path[path.index(ref.name):])
                elif ref.name not in done:
                    stack.append((ref.name, iter(self._uses(ref.name))))
                    path.append(ref.name)
        return order

    def _cycle(self, name: str, ref, cycle: list[str]):
        if cycle == [name]:
            message = f"'{name}' is defined in terms of itself"
        else:
            message = (f"'{ref.name}' here makes a cycle of definitions: "
                       + " → ".join([*cycle, ref.name]))
        raise ExpressionError(f"in the definition of {name}: {message}", self.texts[name],
                              ref.position)

    def link(self, nodes: list) -> tuple[list, Roots]:
        """The expression's nodes with each used definition's nodes put in once, before
        its first use, every ref pointing at the definition's root; and the roots' names,
        for printing. (A definition that is only another one's name shares its root.)"""
        out, roots = self._copied(nodes)
        self.linked.update(roots)
        return out, Roots(_by_root(roots), self, tuple(roots))

    def cautions(self, names) -> list[str]:
        """The cautions of the definitions ``names`` (x^1/2 in --let G="x^1/2"), each as
        the expression's own would be, then which definition it is about: an expression
        made of them reads them as written there. (Named after, not before: a caution
        is dropped by how it starts, 'sinx' is one name, where sinx is given a value.)"""
        return [caution for name in names for caution in self._cautions_of(name)]

    def _cautions_of(self, name: str) -> list[str]:
        from .parser import cautions

        if name not in self._cautions:
            # (its own text alone, the definitions it uses standing as names: linked in,
            # each definition of a chain of N would copy the chain, N^2 nodes in all)
            nodes = [Node("variable", node.position, node.name) if node.kind == "ref"
                     else node for node in self.nodes[name]]
            alone = Expression(self.texts[name], nodes, {})
            alone._read_cautions = self.said[name]
            self._cautions[name] = [f"{caution} (in the definition of {name})"
                                    for caution in cautions(alone)]
        return self._cautions[name]

    def _copied(self, nodes: list) -> tuple[list, dict[str, int]]:
        """link's nodes, and each definition's root, by name, in the order put in."""
        out, roots = [], {}

        def copy(source: list) -> int:
            where: dict[int, int] = {}
            for i, node in enumerate(source):
                if node.kind == "ref":
                    for name in self._needed(node.name, roots):
                        roots[name] = copy(self.nodes[name])  # its refs are linked: no deeper
                    where[i] = roots[node.name]
                else:
                    out.append(node.with_args(tuple(where[a] for a in node.args)))
                    where[i] = len(out) - 1
            return where[len(source) - 1]

        copy(nodes)
        return out, roots

    def _needed(self, name: str, linked: Mapping) -> list[str]:
        """``name`` and the definitions it uses, not linked yet, in dependency order."""
        wanted, stack = {name}, [name]
        while stack:
            for ref in self._uses(stack.pop()):
                if ref.name not in wanted:
                    wanted.add(ref.name)
                    stack.append(ref.name)
        return [n for n in self.order if n in wanted and n not in linked]


class Roots(dict):
    """The name of each definition's root node (link's), and the definitions ``linked``
    into the expression made with them: its cautions include theirs."""

    def __init__(self, names: dict[int, str], definitions: Definitions, linked: tuple):
        super().__init__(names)
        self.definitions, self.linked = definitions, linked


def _by_root(roots: Mapping[str, int]) -> dict[int, str]:
    """Each root's name, the first definition's where two share it (G=F)."""
    names: dict[int, str] = {}
    for name, root in roots.items():
        names.setdefault(root, name)
    return names


def _check_name(name: str, read) -> None:
    """A definition's name must be a name of the language, and not one already taken."""
    from .reader import CONSTANT_SPELLINGS, is_function_name

    if name in CONSTANTS or name in CONSTANT_SPELLINGS:
        raise ValuesError(f"cannot define '{name}': it is a constant")
    if is_function_name(name):
        raise ValuesError(f"cannot define '{name}': it is a function")
    try:
        nodes = read(name, frozenset())
    except ExpressionError:
        nodes = []
    if len(nodes) != 1 or nodes[0].kind != "variable" or nodes[0].name != normal_name(name):
        head = re.match(r"\s*(\w+)\s*\(", name)
        if head:  # f(x)=x^2, as a function is defined on paper
            raise ValuesError(f"cannot define '{name}': a definition takes no arguments: "
                              f"--let {head.group(1)}=..., then write {head.group(1)} (it "
                              "uses the expression's variables)")
        raise ValuesError(f"cannot define '{name}': it is not a name (a letter, then letters, "
                          "digits or '_')")
