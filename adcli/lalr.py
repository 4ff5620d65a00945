"""Runs the LALR tables of grammar/expr.lark (made by adcli.lalr_tables) without lark.

Importing lark costs ~30 ms, more than everything else adcli adds to numpy's import, and
every run parses. So the tables are generated when adcli is installed and run here by a
small loop that does what lark's LALR parser and contextual lexer do, calling the same
builder methods in the same order. On input the tables reject, Parser.parse raises
Rejected, and the caller asks lark itself to explain it, so error messages stay lark's.
"""
from __future__ import annotations

import contextlib
import marshal
import os
import re

from .lalr_tables import FORMAT, fingerprint, sre_tag


BULK = 4096  # characters: a text this long is cut into tokens in one pass first (_Bulk)
_SEPARATORS = re.compile("[\x1c-\x1f]")  # spaces to Unicode's \s, not to ASCII's


class Rejected(Exception):
    """The text is not in the language; lark can say where and why."""


class Token(str):
    """A terminal as matched, with the attributes of lark's Token that parsing needs."""

    def __new__(cls, type_: str, value: str, start_pos: int, end_pos: int):
        token = super().__new__(cls, value)
        token.type, token.value, token.start_pos, token.end_pos = type_, value, start_pos, end_pos
        return token


class Tree:
    """What lark builds for a rule the builder has no method for (``_rule``s: spliced away)."""

    __slots__ = ("data", "children")

    def __init__(self, data: str, children: list):
        self.data, self.children = data, children


class Parser:
    """LALR(1) over the tables, with lark's contextual lexer: each state scans only for the
    terminals it can shift, so one text (like "-") can be different terminals in two states."""

    def __init__(self, tables: dict, builder):
        self._actions = tables["actions"]
        self._start, self._end = tables["start"], tables["end"]
        self._ignore = frozenset(tables["ignore"])
        self._rules = [(origin, size, _reducer(builder, size, *how))
                       for origin, size, *how in tables["rules"]]
        # lark hands a shifted token to the builder's method named after its terminal, if any.
        self._on_shift = {name: getattr(builder, name) for name in tables["terminals"]
                          if callable(getattr(builder, name, None))}
        self._scanner_of_state, self._scanner_specs = tables["scanner"], tables["scanners"]
        self._flags = tables["flags"]
        # A builder may take each token as a plain (text, start) pair: no object to make
        # per token (lark's tokens are str subclasses with attributes, as Token here).
        self._pairs = bool(getattr(builder, "token_pairs", False))
        sre = tables.get("sre") or {}
        self._precompiled = sre.get("code") if sre.get("tag") == sre_tag() else {}
        self._compiled = {}                         # scanner index -> (match, renames)
        self._scanners = [None] * len(self._actions)  # per state, compiled on first use
        self._chains: dict = {}
        self._gotos: dict = {}
        self._tables = tables
        self._bulk = None  # made for the first long text: a _Bulk, or False if it cannot be

    def parse(self, text: str):
        """The builder's value for the whole text; Rejected if the text is not in the language.

        One loop, everything in locals: it runs once per token and per reduction, a
        million times for a 1 MB expression."""
        actions, rules, ignore, end = self._actions, self._rules, self._ignore, self._end
        scanners, on_shift, pairs = self._scanners, self._on_shift, self._pairs
        chains, gotos = self._chains, self._gotos
        state = self._start
        states, values = [state], []
        push, push_value = states.append, values.append
        position, length = 0, len(text)
        bulk = self._bulk_for(text)
        if bulk is not None:
            tokens, kinds, classify, accepts = bulk.tokens(text), bulk.kinds, bulk.classify, \
                bulk.accepts
            index, count = 0, len(tokens or ())
        else:
            tokens = None
        while True:
            token, kind = None, "$END"
            # The next token from the text cut up in one pass, as the state's own scanner
            # would read it (see _Bulk) ...
            if tokens is not None:
                while index < count:
                    value = tokens[index]
                    index += 1
                    kind = kinds.get(value) or classify(value)
                    start = position
                    position += len(value)
                    if kind in ignore:
                        kind = "$END"
                        continue
                    if kind not in accepts[state]:
                        # Not a terminal this state scans for ("-" read as ADD_OP where a
                        # SIGN may come): the state's scanner decides; if it reads another
                        # extent, the rest is scanned state by state, as below.
                        kind = self._rescan(state, text, start, position)
                        if kind is None:
                            tokens, position, kind = None, start, "$END"
                            break
                    token = (value, start) if pairs else Token(kind, value, start, position)
                    break
            # ... or, as lark does, scanned in the state left by the last shift.
            if tokens is None:
                match, renames = scanners[state] or self._scanner(state)
                while position < length:
                    found = match(text, position)
                    if found is None:
                        raise Rejected
                    kind, start, position = found.lastgroup, position, found.end()
                    if kind in ignore:
                        kind = "$END"
                        continue
                    value = found.group()
                    if renames and kind in renames:
                        kind = _rename(renames[kind], value, kind)
                    token = (value, start) if pairs else Token(kind, value, start, position)
                    break
            # Reduce while the token asks for it, then shift it.
            while True:
                action = actions[state].get(kind)
                if action is None:
                    raise Rejected
                if action >= 0:
                    if token is None:
                        raise Rejected  # (lark asserts that $END is never shifted)
                    push(action)
                    state = action
                    push_value(on_shift[kind](token) if on_shift and kind in on_shift
                               else token)
                    break
                origin, size, reduce = rules[~action]
                if reduce is None:  # a ?rule around one child: the child stands for it
                    # Such rules come in chains (x is a base, an inner_factor, a factor,
                    # a run, ...), each only replacing the top state: jump to the end.
                    below = states[-2]
                    state = chains.get((below, state, kind))
                    if state is None:
                        state = self._chain(below, states[-1], kind)
                    states[-1] = state
                else:
                    # The goto, and the chain of ?rules that kind then asks for, in one.
                    if size == 1:
                        values[-1] = reduce([values[-1]])
                        below = states[-2]
                        state = gotos.get((below, origin, kind))
                        if state is None:
                            state = self._goto(below, origin, kind)
                        states[-1] = state
                    else:
                        if size:
                            children = values[-size:]
                            del states[-size:], values[-size:]
                            push_value(reduce(children))
                        else:
                            push_value(reduce([]))
                        below = states[-1]
                        state = gotos.get((below, origin, kind))
                        if state is None:
                            state = self._goto(below, origin, kind)
                        push(state)
                if token is None and state == end:
                    return values[-1]

    def _bulk_for(self, text: str):
        if len(text) < BULK or self._bulk is False:
            return None
        if self._bulk is None:
            made = self._tables.get("bulk")
            self._bulk = made and _Bulk(
                self._compile(made["cut"]), self._compile(made["named"]),
                [frozenset(made["accepts"][index]) for index in self._scanner_of_state],
                made.get("ascii") and self._compile(made["ascii"], made["ascii_flags"])) or False
        return self._bulk or None

    def _rescan(self, state: int, text: str, start: int, end: int) -> str | None:
        """What the state's own scanner reads at start, if it ends at end (else None)."""
        match, renames = self._scanners[state] or self._scanner(state)
        found = match(text, start)
        if found is None or found.end() != end or found.lastgroup in self._ignore:
            return None
        return found.lastgroup

    def _goto(self, below: int, origin: str, kind: str) -> int:
        """The top state after a reduction to ``origin`` over ``below``, and after the
        chain of ?rules that ``kind`` then asks for (as the loop would reduce them)."""
        top = self._actions[below][origin]
        action = self._actions[top].get(kind)
        if action is not None and action < 0 and self._rules[~action][2] is None \
                and not (kind == "$END" and top == self._end):
            chained = self._chains.get((below, top, kind))
            top = chained if chained is not None else self._chain(below, top, kind)
        self._gotos[below, origin, kind] = top
        return top

    def _chain(self, below: int, state: int, kind: str) -> int:
        """The top state after every reduction by a ?rule of one child that ``kind`` asks
        for in turn, from ``state`` over ``below``: each goes to below's goto."""
        top = state
        while True:
            top = self._actions[below][self._rules[~self._actions[top][kind]][0]]
            action = self._actions[top].get(kind)
            if action is None or action >= 0 or self._rules[~action][2] is not None \
                    or (kind == "$END" and top == self._end):
                self._chains[below, state, kind] = top
                return top

    def _scanner(self, state: int):
        index = self._scanner_of_state[state]
        if index not in self._compiled:
            patterns, renames = self._scanner_specs[index]
            self._compiled[index] = (
                _first_match([self._compile(p) for p in patterns]),
                {name: [self._compile(p) for p in keywords] for name, keywords in renames})
        self._scanners[state] = self._compiled[index]
        return self._scanners[state]

    def _compile(self, pattern: str, flags: int | None = None):
        arguments = self._precompiled.get(pattern)
        if arguments is None:
            return re.compile(pattern, self._flags if flags is None else flags)
        import _sre

        return _sre.compile(pattern, *marshal.loads(arguments))


class _Bulk:
    """A long text's tokens from one pass of one regular expression, run in C, instead of
    a match per token in the loop (a third of the parse of a 1 MB text).

    Every state's scanner tries the terminals it may shift in one global order (lark sorts
    them once). So the union of all terminals in that order, matched where a state's
    scanner would match, finds the terminal that scanner finds, with the same extent,
    whenever the state scans for it; where it does not, the loop asks the state's scanner
    (Parser._rescan). A token's terminal depends on its text alone (no terminal looks
    around), so it is found once per distinct text. The union is worked out with the
    tables (lalr_tables.bulk: ~30 ms, a process's every long parse paid it), and only
    where all of that holds for them."""

    def __init__(self, cut, named, accepts: list, ascii_cut=None):
        self._cut, self._named, self._ascii = cut, named.fullmatch, ascii_cut
        self.kinds: dict = {}
        self.accepts = accepts  # per state: the terminals its scanner scans for

    def tokens(self, text: str) -> list | None:
        """The text's tokens, or None if they do not cover it end to end (a character no
        terminal matches: the loop's own scan finds where)."""
        ascii_alone = self._ascii is not None and text.isascii() and \
            _SEPARATORS.search(text) is None
        tokens = (self._ascii if ascii_alone else self._cut).findall(text)
        # (matches in order, none overlapping: joined, they are the text if no gap is left;
        # one join is a quarter of summing a million lengths)
        return tokens if "".join(tokens) == text else None

    def classify(self, value: str) -> str:
        found = self._named(value)
        kind = self.kinds[value] = found.lastgroup if found else ""
        return kind


def _first_match(compiled: list):
    if len(compiled) == 1:
        return compiled[0].match

    def match(text, position):
        for pattern in compiled:
            found = pattern.match(text, position)
            if found:
                return found
        return None

    return match


def _rename(keywords: list, value: str, kind: str) -> str:
    # A terminal whose text spells a string terminal becomes that one (lark's UnlessCallback).
    for pattern in keywords:
        found = pattern.fullmatch(value)
        if found:
            return found.lastgroup
    return kind


def _reducer(builder, size: int, name: str, expand1: bool, keep, trailing: int):
    """What lark calls on a reduction: keep the children the rule keeps (splicing in those of
    ``_rule``s), hand a lone child of a ``?rule`` up unchanged, else call the builder.
    None for a ``?rule`` of one symbol: its child always stands for it, nothing to call."""
    if expand1 and keep is None and size == 1:
        return None
    method = getattr(builder, name, None)
    if method is None:
        default = getattr(builder, "__default__", None)
        method = ((lambda children: default(name, children, None)) if default
                  else (lambda children: Tree(name, children)))
    if keep is None and not expand1:
        return method
    if not expand1 and not trailing and all(not splice and not nones
                                            for _, splice, nones in keep):
        # Only some children kept, as they are ("call": the ")" dropped): no loop.
        picks = tuple(index for index, _, _ in keep)
        if len(picks) == 2:
            a, b = picks
            return lambda children: method([children[a], children[b]])
        return lambda children: method([children[p] for p in picks])

    def reduce(children):
        if keep is not None:
            kept = []
            for index, splice, nones in keep:
                if nones:
                    kept += [None] * nones
                if not splice:
                    kept.append(children[index])
                elif kept:
                    kept += children[index].children
                else:  # reuse the list: a long left-recursive list stays linear
                    kept = children[index].children
            if trailing:
                kept += [None] * trailing
            children = kept
        if expand1 and len(children) == 1:
            return children[0]
        return method(children)

    return reduce


# ----- where the tables come from ---------------------------------------------------------

def grammar_path() -> str:
    """grammar/expr.lark: inside the installed package, or at the root of a checkout."""
    here = os.path.dirname(os.path.abspath(__file__))
    installed = os.path.join(here, "grammar", "expr.lark")
    return installed if os.path.exists(installed) else os.path.join(here, os.pardir, "grammar",
                                                                    "expr.lark")


def grammar_text() -> str:
    with open(grammar_path(), encoding="utf-8") as file:
        return file.read()


def load_tables() -> dict:
    """The generated tables (shipped in the source tree, made again by setup.py at install
    time) when they are the grammar's; else, in a checkout whose grammar was edited, made by
    lark (slow: ~0.1 s) and cached until the grammar changes."""
    try:
        from ._expr_tables import TABLES
    except ImportError:
        return _checkout_tables()
    current = TABLES["format"] == FORMAT and TABLES["grammar"] == fingerprint(grammar_text())
    return TABLES if current else _checkout_tables()


def _checkout_tables() -> dict:
    from . import lalr_tables

    text = grammar_text()
    key = (FORMAT, sre_tag(), _lark_stamp(), text)
    path = _cache_path()
    try:
        with open(path, "rb") as file:
            stored_key, tables = marshal.loads(file.read())  # load(file): many small reads
        if stored_key == key:
            return tables
    except (OSError, EOFError, ValueError, TypeError):
        pass  # no cache yet, or an unreadable one: make the tables again
    tables = lalr_tables.generate(text)
    _store(path, (key, tables))
    return tables


def _lark_stamp() -> str:
    # Which lark made the tables, without importing it: its file and when it was installed.
    import importlib.util

    spec = importlib.util.find_spec("lark")
    origin = spec.origin if spec and spec.origin else ""
    return f"{origin}@{os.stat(origin).st_mtime_ns if origin else 0}"


def _cache_path() -> str:
    """One cache file per checkout, overwritten when its key no longer matches."""
    import zlib

    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    checkout = zlib.crc32(os.path.realpath(grammar_path()).encode("utf-8"))
    return os.path.join(root, "adcli", f"lalr-{checkout:08x}.marshal")


def _store(path: str, content) -> None:
    partial = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(partial, "wb") as file:
            marshal.dump(content, file)
        os.replace(partial, path)  # atomic: a concurrent reader sees the old file or this one
    except OSError:  # a read-only home: parse with tables made afresh each time
        with contextlib.suppress(OSError):
            os.remove(partial)
