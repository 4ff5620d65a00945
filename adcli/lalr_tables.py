"""The LALR tables of grammar/expr.lark, made by lark: at install time, for a checkout, in tests.

The tables are data (dicts, tuples, strings, ints) that adcli.lalr runs without importing
lark, which costs ~30 ms at every start. Everything is read from lark's own objects after
lark compiled the grammar (its parse table, each parser state's contextual lexer, its tree
builder's wrappers), so the tables accept exactly what lark accepts and build the same values.

setup.py loads this file by path, with no package around it: it may import only the standard
library, and lark inside functions.
"""
from __future__ import annotations

import marshal
import re
import sys

# Bump when the layout of the tables changes: it keys checkout caches (adcli.lalr).
FORMAT = 4
GENERATED_MODULE = "_expr_tables"   # adcli/_expr_tables.py in an installed package
# How adcli's parser configures lark. The fallback that explains rejected input uses the same.
LARK_OPTIONS = {"parser": "lalr", "lexer": "contextual", "propagate_positions": False,
                "maybe_placeholders": False}


class UnsupportedGrammar(Exception):
    """The grammar uses a lark feature adcli.lalr does not run; lark would have to parse it."""


def fingerprint(grammar_text: str) -> int:
    """Which grammar text the tables were made from: tables made from another text are
    never used (a checkout whose grammar was edited makes its own)."""
    import zlib

    return zlib.crc32(grammar_text.encode("utf-8"))


def make_lark(grammar_text: str, **options):
    from lark import Lark

    return Lark(grammar_text, **LARK_OPTIONS, **options)


def generate(grammar_text: str) -> dict:
    """The tables for a grammar, with states numbered the same way in every run."""
    lark = make_lark(grammar_text)
    table = lark.parser.parser._parse_table
    (start,) = lark.options.start
    rules = {rule: index for index, rule in enumerate(lark.rules)}
    order = _canonical_order(table.states, table.start_states[start])
    number = {state: index for index, state in enumerate(order)}
    lexers = lark.parser.lexer.lexers
    scanners: list = []
    flags = int(lark.lexer_conf.g_regex_flags)
    tables = {
        "format": FORMAT,
        "grammar": fingerprint(grammar_text),
        "start": number[table.start_states[start]],
        "end": number[table.end_states[start]],
        "actions": [_actions(table.states[state], number, rules) for state in order],
        "scanner": [_scanner_index(lexers[state], scanners) for state in order],
        "scanners": scanners,
        "ignore": tuple(sorted(str(name) for name in lark.ignore_tokens)),
        "flags": flags,
        "terminals": tuple(sorted(str(t.name) for t in lark.terminals)),
        "rules": [_rule(rule, wrappers) for rule, wrappers in _tree_builder(lark, rules)],
    }
    tables["bulk"] = bulk(scanners, tables["scanner"], flags, tables["ignore"])
    made = tables["bulk"] or {}
    extra = {made[key]: made.get(f"{key}_flags", flags) for key in ("cut", "named", "ascii")
             if key in made}
    tables["sre"] = _precompiled(scanners, flags, extra)
    return tables


def bulk(scanners: list, scanner_of_state: list, flags: int, ignore) -> dict | None:
    """One regular expression for all terminals, for adcli.lalr._Bulk to cut a long text
    into tokens in one pass: "cut" (non-capturing, for findall), "named" (to tell a token's
    terminal) and, per scanner, the terminals it scans for. None where that would not read
    as the state's own scanners do: keyword renames, a scanner without the ignored
    terminals, no one order that keeps every scanner's, or a terminal that may look around
    its match or match nothing."""
    if any(renames for _, renames in scanners):
        return None
    try:
        named = [[_named(alternative) for pattern in patterns
                  for alternative in _alternatives(pattern)] for patterns, _ in scanners]
        if any(None in scanner or not set(ignore) <= {name for name, _ in scanner}
               for scanner in named):
            return None
        union = _one_order(named, scanner_of_state)
        if union is None or not all(_plain(body, flags) for _, body in union):
            return None
        cut = _guarded([_non_capturing(body) for _, body in union], flags)
        # A group left capturing would make findall hand back groups, not tokens.
        if re.compile(cut, flags).groups:
            return None
    except (IndexError, ValueError, re.error):  # patterns it cannot take apart
        return None
    # "named" keeps only the terminals' own groups: a body's inner groups, captured, made
    # each fullmatch 2.5x slower (a 10^4-term sum has 10^4 distinct numbers to tell).
    telling = "|".join(f"(?P<{name}>{_non_capturing(body)})" for name, body in union)
    return {"cut": cut, "named": telling,
            "accepts": [tuple(sorted(name for name, _ in scanner)) for scanner in named],
            # The same cut for a text of ASCII alone: there re.ASCII's \s, \w and \d mean
            # what the Unicode ones do, but for \x1c-\x1f, which Unicode counts as space
            # (lalr._Bulk uses it only for texts without them): 10-20% faster.
            "ascii": "(?a)" + cut, "ascii_flags": int(flags & ~re.UNICODE)}


def _guarded(bodies: list, flags: int) -> str:
    """The alternation of ``bodies`` in their order, where each run of two or more that
    can only begin with a character a name, a number or a space never begins with (TeX's
    commands, the operators and brackets) is behind one look at that character: re tries
    the alternatives of a match one by one, and most tokens are names, numbers, spaces."""
    out, run = [], []

    def close():
        if len(run) > 1:
            starts = "|".join(dict.fromkeys(atom for _, atoms in run for atom in atoms))
            out.append(f"(?={starts})(?:{'|'.join(body for body, _ in run)})")
        else:
            out.extend(body for body, _ in run)
        run.clear()

    for body in bodies:
        atoms = _first_atoms(body, flags)
        if atoms is None or _common_start(atoms, flags):
            close()
            out.append(body)
        else:
            run.append((body, atoms))
    close()
    return "|".join(f"(?:{body})" for body in out)


_CATEGORIES = {"CATEGORY_DIGIT": r"\d", "CATEGORY_NOT_DIGIT": r"\D", "CATEGORY_SPACE": r"\s",
               "CATEGORY_NOT_SPACE": r"\S", "CATEGORY_WORD": r"\w", "CATEGORY_NOT_WORD": r"\W"}
_COMMON = "abcxyzABCXYZ_0123456789 \t\n"  # what names, numbers and spaces begin with


def _first_atoms(body: str, flags: int) -> list | None:
    """Expressions of one character, one of which the first character of any match of
    ``body`` matches; None if that is not worked out here (a group that may be empty)."""
    try:
        from re import _parser
    except ImportError:  # Python 3.10
        import sre_parse as _parser
    return _first_of(list(_parser.parse(body, flags)))


def _first_of(items: list) -> list | None:
    atoms = []
    for op, arg in items:
        op = str(op)
        if op == "LITERAL":
            return atoms + [re.escape(chr(arg))]
        if op == "IN":
            return atoms + [_class(arg)]
        if op == "BRANCH":
            branches = [_first_of(list(branch)) for branch in arg[1]]
            return None if None in branches else atoms + sum(branches, [])
        if op == "SUBPATTERN":
            first = _first_of(list(arg[-1]))
            return None if first is None else atoms + first
        if op in ("MAX_REPEAT", "MIN_REPEAT"):
            first = _first_of(list(arg[2]))
            if first is None:
                return None
            atoms += first
            if arg[0] >= 1:
                return atoms
            continue  # x? or x*: what follows may come first
        return None
    return None  # the whole body may match nothing


def _class(items) -> str:
    text = []
    for op, arg in items:
        op = str(op)
        if op == "NEGATE":
            text.insert(0, "^")
        elif op == "LITERAL":
            text.append(re.escape(chr(arg)))
        elif op == "RANGE":
            text.append(f"{re.escape(chr(arg[0]))}-{re.escape(chr(arg[1]))}")
        elif op == "CATEGORY" and str(arg) in _CATEGORIES:
            text.append(_CATEGORIES[str(arg)])
        else:
            raise ValueError(f"a class item {op} {arg}")
    return "[" + "".join(text) + "]"


def _common_start(atoms: list, flags: int) -> bool:
    """Whether a name, a number or a space may begin where the atoms do."""
    anyone = re.compile("|".join(atoms), flags)
    return any(anyone.match(c) for c in _COMMON)


def _pieces(pattern: str):
    """A regular expression's text in pieces: an escape, a character class, or one other
    character (so a "(" or "|" piece is one of the expression's own)."""
    i = 0
    while i < len(pattern):
        j = i + 1
        if pattern[i] == "\\":
            j = i + 2
        elif pattern[i] == "[":
            j += pattern[j:j + 1] == "^"
            j += pattern[j:j + 1] == "]"  # a "]" first in a class is one of its characters
            while pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            j += 1
        yield pattern[i:j]
        i = j


def _alternatives(pattern: str) -> list:
    """A regular expression's top-level alternatives (outside groups)."""
    parts, current, depth = [], [], 0
    for piece in _pieces(pattern):
        if piece == "|" and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        depth += (piece == "(") - (piece == ")")
        current.append(piece)
    parts.append("".join(current))
    return parts


def _named(alternative: str):
    """(name, body) of one ``(?P<name>body)`` alternative, or None."""
    found = re.fullmatch(r"\(\?P<(\w+)>(.*)\)", alternative, re.S)
    return found and (found.group(1), found.group(2))


def _non_capturing(body: str) -> str:
    """body with every group non-capturing, so findall hands back whole matches."""
    pieces = list(_pieces(body))
    out, k = [], 0
    while k < len(pieces):
        piece = pieces[k]
        if piece == "(" and pieces[k + 1:k + 2] != ["?"]:
            piece = "(?:"
        elif piece == "(" and pieces[k + 1:k + 3] == ["?", "P"] and pieces[k + 3] == "<":
            k = pieces.index(">", k)
            piece = "(?:"
        out.append(piece)
        k += 1
    return "".join(out)


def _one_order(scanners: list, scanner_of_state: list) -> list | None:
    """Every terminal in one order that keeps each scanner's, or None if none does. Two
    terminals no scanner orders (SIGN and ADD_OP never meet) go in the order of how many
    states scan for each: the union reads their common text ("-") as the commoner."""
    bodies, before = {}, {}
    for scanner in scanners:
        for k, (name, body) in enumerate(scanner):
            if bodies.setdefault(name, body) != body:
                return None
            before.setdefault(name, set()).update(n for n, _ in scanner[:k])
    states = {name: sum(name in {n for n, _ in scanners[s]} for s in scanner_of_state)
              for name in bodies}

    def earlier(a, b) -> bool:  # must a come before b?
        seen, stack = set(), [b]
        while stack:
            for n in before[stack.pop()] - seen:
                if n == a:
                    return True
                seen.add(n)
                stack.append(n)
        return False
    names = sorted(bodies, key=lambda n: (-states[n], n))
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if not earlier(a, b) and not earlier(b, a):
                before[b].add(a)
    order, left = [], set(bodies)
    while left:
        ready = sorted(name for name in left if not before[name] & left)
        if not ready:
            return None
        order.append(ready[0])
        left.remove(ready[0])
    return [(name, bodies[name]) for name in order]


def _plain(body: str, flags: int) -> bool:
    """True if body never matches the empty string and looks at nothing around its match
    (no anchors, lookarounds or back-references): then what it matches, and so which
    terminal a token is, depends on the token's text alone."""
    try:
        from re import _parser
    except ImportError:  # Python 3.10
        import sre_parse as _parser
    try:
        parsed = _parser.parse(body, flags)
    except Exception:
        return False
    if parsed.getwidth()[0] == 0:
        return False
    looks = {"AT", "ASSERT", "ASSERT_NOT", "GROUPREF", "GROUPREF_EXISTS", "GROUPREF_IGNORE",
             "GROUPREF_LOC_IGNORE", "GROUPREF_UNI_IGNORE"}
    stack = [parsed]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)) or hasattr(item, "data"):
            items = item.data if hasattr(item, "data") else item
            for entry in items:
                if isinstance(entry, tuple) and len(entry) == 2 and str(entry[0]) in looks:
                    return False
                stack.append(entry)
    return True


def _canonical_order(states: dict, start: int) -> list:
    # lark numbers states in an order that varies with string hashing; walk from the start.
    from lark.parsers.lalr_analysis import Shift

    order, seen = [start], {start}
    for state in order:  # grows while we walk it: a breadth-first search
        for symbol in sorted(states[state]):
            action, target = states[state][symbol]
            if action is Shift and target not in seen:
                seen.add(target)
                order.append(target)
    if len(order) != len(states):
        raise UnsupportedGrammar("some LALR states are unreachable from the start state")
    return order


def _actions(row: dict, number: dict, rules: dict) -> dict:
    """Symbol -> the next state (shift or goto, >= 0) or ~rule index (reduce, < 0)."""
    from lark.parsers.lalr_analysis import Shift

    return {str(symbol): number[arg] if action is Shift else ~rules[arg]
            for symbol, (action, arg) in sorted(row.items())}


def _scanner_index(lexer, scanners: list) -> int:
    """The scanner of one parser state: its terminals' alternation, and for each terminal
    that may also spell a string terminal (a keyword), the alternation that renames it."""
    patterns = _patterns(lexer.scanner)        # builds lexer.callback too
    if type(lexer).__name__ != "BasicLexer" or any(
            type(unless).__name__ != "UnlessCallback" for unless in lexer.callback.values()):
        raise UnsupportedGrammar("lexer callbacks other than keyword matching")
    scanner = (patterns, tuple(sorted((str(name), _patterns(unless.scanner))
                                      for name, unless in lexer.callback.items())))
    if scanner not in scanners:
        scanners.append(scanner)
    return scanners.index(scanner)


def _patterns(scanner) -> tuple:
    # One alternation of named groups, tried in order (lark splits it only past re's limits).
    return tuple(str(compiled.pattern) for compiled in scanner._mres)


def sre_tag() -> tuple:
    """The regular-expression engine precompiled scanners are for (see _precompiled)."""
    import _sre

    return (sys.implementation.cache_tag, tuple(sys.version_info[:3]), _sre.MAGIC,
            _sre.CODESIZE, sys.maxunicode)


def _precompiled(scanners: list, flags: int, extra: dict) -> dict:
    """Each scanner pattern as compiled by this Python's re: compiling the scanners costs
    ~0.5 ms each (sets of non-Latin-1 characters), at start-up, when a run parses. Used only
    by the same interpreter (sre_tag), and only patterns that compile back to an equal
    Pattern (same flags and code) are kept; the others are compiled as usual. ``extra``:
    other patterns, each with its flags."""
    patterns = {p: flags for main, renames in scanners
                for p in main + sum((k for _, k in renames), ())}
    patterns.update(extra)
    code = {}
    for pattern, flags in sorted(patterns.items()):
        try:
            arguments = _sre_arguments(pattern, flags)
            import _sre

            if _sre.compile(pattern, *arguments) == re.compile(pattern, flags):
                # (marshalled: a module of bytes imports in a third of the time of one of
                # lists, and a run unpacks only the scanners its parse reaches)
                code[pattern] = marshal.dumps(arguments)
        except Exception:  # another Python's re internals: compile at run time instead
            continue
    return {"tag": sre_tag(), "code": code}


def _sre_arguments(pattern: str, flags: int) -> tuple:
    # What re._compiler.compile hands to _sre.compile after parsing and code generation.
    try:
        from re import _compiler, _parser
    except ImportError:  # Python 3.10
        import sre_compile as _compiler
        import sre_parse as _parser
    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    # Opcodes are int subclasses: plain ints, so the tables marshal and print.
    return (int(flags | parsed.state.flags), [int(c) for c in code], parsed.state.groups - 1,
            groupindex, tuple(indexgroup))


def _tree_builder(lark, rules: dict):
    """Each rule with the wrappers lark puts around its callback, in rule-index order."""
    from lark.parse_tree_builder import ParseTreeBuilder
    from lark.tree import Tree

    options = lark.options
    builder = ParseTreeBuilder(lark.rules, Tree, options.propagate_positions, False,
                               options.maybe_placeholders)
    if [rules[rule] for rule, _ in builder.rule_builders] != list(range(len(rules))):
        raise UnsupportedGrammar("lark's tree builder lists the rules in another order")
    return builder.rule_builders


def _rule(rule, wrappers) -> tuple:
    """(origin, length, callback name, expand a single child?, children kept or None, Nones
    appended): what lark's wrappers around the callback do, as data."""
    from lark.parse_tree_builder import (ChildFilterLALR, ChildFilterLALR_NoPlaceholders,
                                         ExpandSingleChild)

    expand1, keep, trailing = False, None, 0
    for wrapper in wrappers:
        if wrapper is ExpandSingleChild:
            expand1 = True
        elif getattr(wrapper, "func", None) is ChildFilterLALR_NoPlaceholders:
            keep = tuple((index, bool(expand), 0) for index, expand in wrapper.args[0])
        elif getattr(wrapper, "func", None) is ChildFilterLALR:
            keep = tuple((index, bool(expand), nones) for index, expand, nones in wrapper.args[0])
            trailing = wrapper.args[1]
        else:
            raise UnsupportedGrammar(f"rule {rule}: tree-building step {wrapper!r}")
    name = rule.alias or rule.options.template_source or rule.origin.name
    # Names are lark Tokens (str subclasses): plain str, so the tables marshal and print.
    return (str(rule.origin.name), len(rule.expansion), str(name), expand1, keep, trailing)


def module_source(tables: dict) -> str:
    entries = "".join(f"    {key!r}: {value!r},\n" for key, value in tables.items())
    return ('"""LALR tables generated from grammar/expr.lark by adcli/lalr_tables.py. Do not '
            'edit: run `python adcli/lalr_tables.py` after changing the grammar."""\n\n'
            'TABLES = {\n' + entries + "}\n")


def write_module(grammar_text: str, path: str) -> None:
    with open(path, "w", encoding="utf-8") as file:
        file.write(module_source(generate(grammar_text)))


if __name__ == "__main__":
    # Regenerate the tables shipped in the source tree (a checkout then parses without
    # lark); setup.py regenerates them again for each install.
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, os.pardir, "grammar", "expr.lark"), encoding="utf-8") as f:
        write_module(f.read(), os.path.join(here, GENERATED_MODULE + ".py"))
