"""JSON text as ``json.dumps`` writes it, without importing the json package.

Importing json costs a one-point run ~1.5 ms (its decoder and scanner, five regular
expressions compiled), for a few dicts of floats and strings. ``dumps`` gives the same
text as ``json.dumps(value, ensure_ascii=..., allow_nan=...)`` with the default separators,
made by the same C functions: ``_json``'s string escapes and float's and int's own reprs
(tests/test_jsontext.py compares the two on random values). Nothing here recurses: a
value nested deeper than Python's recursion limit is written as any other.
"""
from __future__ import annotations

from _json import encode_basestring, encode_basestring_ascii


class _Text(str):
    """Punctuation already written as JSON (as opposed to a string value to escape)."""


_COMMA, _COLON, _CLOSE_LIST, _CLOSE_DICT = _Text(", "), _Text(": "), _Text("]"), _Text("}")
_CONSTANTS = {None: "null", True: "true", False: "false"}
_INF = float("inf")


def dumps(value, ensure_ascii: bool = True, allow_nan: bool = True) -> str:
    """``value`` (dicts, lists, tuples, strings, floats, ints, bools, None) as
    ``json.dumps`` writes it; its ValueError for nan and infinities if not ``allow_nan``,
    its TypeError for other types (each where json meets it). (No check for a container
    holding itself, json's ValueError: adcli writes none.)"""
    escape = encode_basestring_ascii if ensure_ascii else encode_basestring
    out: list[str] = []
    todo = [value]      # what is left to write, the next one last
    while todo:
        item = todo.pop()
        kind = type(item)
        if kind is _Text:
            out.append(item)
        elif kind is _Key:
            out.append(escape(_key(item.key, allow_nan)))
        elif isinstance(item, str):
            out.append(escape(item))
        elif item is None or item is True or item is False:
            out.append(_CONSTANTS[item])
        elif isinstance(item, int):
            out.append(int.__repr__(item))
        elif kind is Number:
            out.append(item.text)
        elif isinstance(item, float):
            out.append(_float(item, allow_nan))
        elif isinstance(item, (list, tuple)):
            out.append("[")
            todo.append(_CLOSE_LIST)
            for k in range(len(item) - 1, -1, -1):
                todo.append(item[k])
                if k:
                    todo.append(_COMMA)
        elif isinstance(item, dict):
            out.append("{")
            todo.append(_CLOSE_DICT)
            pairs = list(item.items())
            for k in range(len(pairs) - 1, -1, -1):
                key, v = pairs[k]
                todo += (v, _COLON, _Key(key))
                if k:
                    todo.append(_COMMA)
        else:
            raise TypeError(f"Object of type {kind.__name__} is not JSON serializable")
    return "".join(out)


class Number(float):
    """A float written as the text it is made from (a finite JSON number): one rounded by
    --digits, with the digits CSV and tables show (4.64e+10), not float's repr of that
    float (46400000000.0). json's own encoder writes its repr."""

    __slots__ = ("text",)

    def __new__(cls, text: str):
        number = super().__new__(cls, text)
        number.text = text
        return number


class _Key:
    """A dict's key, made a string when it is written (as json does: its error there)."""

    __slots__ = ("key",)

    def __init__(self, key):
        self.key = key


def _float(value: float, allow_nan: bool) -> str:
    if value != value or value in (_INF, -_INF):
        if not allow_nan:
            raise ValueError("Out of range float values are not JSON compliant")
        return "NaN" if value != value else "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


def _key(key, allow_nan: bool) -> str:
    """A dict's key as json makes it a string."""
    if isinstance(key, str):
        return key
    if isinstance(key, float):
        return _float(key, allow_nan)
    if key is None or key is True or key is False:
        return _CONSTANTS[key]
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def copied(value, leaf=None):
    """A copy of nested dicts and lists, each container new (leaves shared, or with
    ``leaf``, each replaced by leaf(it)): what ``json.loads(json.dumps(value))`` gives for
    adcli's point skeletons, without json; a loop, so as deep as json reads."""
    top = [value]
    todo = [top]    # new containers, their items still the originals
    while todo:
        container = todo.pop()
        for k in container if isinstance(container, dict) else range(len(container)):
            item = container[k]
            if isinstance(item, dict):
                container[k] = item = dict(item)
            elif isinstance(item, list):
                container[k] = item = list(item)
            else:
                if leaf is not None:
                    container[k] = leaf(item)
                continue
            todo.append(item)
    return top[0]
