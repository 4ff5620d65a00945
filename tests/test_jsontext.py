"""adcli.jsontext writes what json.dumps writes, byte for byte, without importing json (a
one-point run's start-up: tests/test_start_up_path.py). The reference is json itself."""
from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adcli.jsontext import copied, dumps

# Every code point, lone surrogates included (json writes them: escaped, or as they are).
TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF, blacklist_categories=()))
FLOATS = st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from(
    [-0.0, 0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1e16,
     1e-7, 0.1, 123456789012345680.0])
INTS = st.integers() | st.sampled_from([2**53 + 1, -2**53 - 1, 2**64, -2**63, 10**400])
LEAVES = st.none() | st.booleans() | INTS | FLOATS | TEXT
KEYS = TEXT | st.none() | st.booleans() | INTS | FLOATS   # json makes each a string
VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=5)
                      | st.lists(inner, max_size=5).map(tuple)
                      | st.dictionaries(KEYS, inner, max_size=5), max_leaves=40)


@settings(max_examples=500, deadline=None)
@given(VALUES, st.booleans())
def test_the_same_text_as_json(value, ascii):
    assert dumps(value, ensure_ascii=ascii, allow_nan=False) == \
        json.dumps(value, ensure_ascii=ascii, allow_nan=False)
    assert dumps(value, ensure_ascii=ascii) == json.dumps(value, ensure_ascii=ascii)


@pytest.mark.parametrize("value", [
    "", "\"\\/\b\f\n\r\t", "\x00\x1f\x7f\x80", "é∂θ̂ 𝑥", "\ud800", "a\udfffb", "\u2028\u2029",
    [], {}, (), [[]], {"": {}}, [{}, [], ()], {"a": [1, {"b": None}]},
    -0.0, 1e308, 5e-324, 1e16, 1e-5, 2**53 + 1, -(2**70), True, False, None,
    {2: 1, 1.5: 3, None: 5, -0.0: 6, 10**30: 7}, {True: 1, False: 0},
    {"value": None, "gradient": {"x": 2.0}},
])
@pytest.mark.parametrize("ascii", [True, False])
def test_edges_as_json(value, ascii):
    assert dumps(value, ensure_ascii=ascii) == json.dumps(value, ensure_ascii=ascii)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, [1.0, math.nan],
                                   {"a": {"b": -math.inf}}, {math.inf: 1}])
def test_nan_and_infinities_raise_as_json(value):
    with pytest.raises(ValueError) as ours:
        dumps(value, allow_nan=False)
    with pytest.raises(ValueError) as theirs:
        json.dumps(value, allow_nan=False)
    assert str(ours.value) == str(theirs.value)
    assert dumps(value) == json.dumps(value)    # allowed: NaN, Infinity as json spells them


@pytest.mark.parametrize("value", [object(), [1, {2j}], {"a": b"x"}, {(1,): 2},
                                   {"a": math.nan, (1,): 2}])
def test_other_types_raise_as_json(value):
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as error:
        expected = error
    with pytest.raises(type(expected)) as ours:
        dumps(value, allow_nan=False)
    assert str(ours.value) == str(expected)


def test_deep_nesting_does_not_recurse():
    value: list = []
    for _ in range(100_000):
        value = [value, {"a": 1.5}]
    text = dumps(value)
    assert text.startswith("[" * 100_001 + "]") and text.endswith(', {"a": 1.5}]')
    assert len(text) == 100_001 * 2 + 100_000 * len(', {"a": 1.5}')


@settings(max_examples=200, deadline=None)
@given(VALUES.filter(lambda v: not isinstance(v, tuple)))
def test_a_copy_as_json_round_trips_it(value):
    value = json.loads(json.dumps(value))   # what a skeleton is: dicts, lists, leaves
    copy = copied(value)
    assert copy == value
    _no_shared_containers(copy, value)


def _no_shared_containers(a, b):
    todo = [(a, b)]
    while todo:
        a, b = todo.pop()
        if isinstance(a, (dict, list)):
            assert a is not b
            todo.extend(zip(a.values(), b.values()) if isinstance(a, dict) else zip(a, b))


def test_writing_imports_no_json():
    code = ("import sys; from adcli.jsontext import dumps; "
            "dumps({'a': [1.5, 'é', None]}, ensure_ascii=False); "
            "print(sorted(m for m in sys.modules if m == 'json' or m.startswith('json.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "[]", done.stderr


class _Gradient:
    """A command as render's writers see it: two variables, a value (in a list, as a
    jacobian's, that each point's is its own) and its gradient."""

    names = ["x", "y"]

    def columns(self):
        from adcli.commands.base import Column

        return [Column(("values", 0), "f", "f"), Column(("gradient", "x"), "df/dx", "df/dx"),
                Column(("gradient", "y"), "df/dy", "df/dy")]

    def skeleton(self):
        return {"values": [], "gradient": {}}


@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_few_points_and_many_are_written_alike(encoding):
    # Chunks of fewer than 64 points are written by jsontext, larger ones by json: the
    # same lines, each the point itself.
    import io

    import numpy as np

    from adcli.render import JsonLinesWriter, Rows

    n = 100
    x, y = np.linspace(-2, 3, n), np.geomspace(1e-300, 1e300, n)
    columns = [x * y, y, x]
    ids = [f"p{i}é\"\x01" for i in range(n)]
    texts = []
    for size in (n, 10):
        out = io.TextIOWrapper(io.BytesIO(), encoding=encoding, write_through=True)
        writer = JsonLinesWriter(_Gradient(), out, 3)
        writer.pass_through(["id"])
        for start in range(0, n, size):
            part = slice(start, start + size)
            writer.write(Rows({"x": x[part], "y": y[part]}, [c[part] for c in columns],
                              len(x[part]), {"id": ids[part]}))
        texts.append(out.buffer.getvalue().decode(encoding))
    assert texts[0] == texts[1]
    lines = texts[0].splitlines()
    for i, line in enumerate(lines):
        assert json.loads(line) == {
            "at": {"x": x[i], "y": y[i]}, "extra": {"id": ids[i]},
            "values": [float(f"{x[i] * y[i]:.3g}")],
            "gradient": {"x": float(f"{y[i]:.3g}"), "y": float(f"{x[i]:.3g}")}}
    assert len(lines) == n and (encoding == "utf-8") == ("é" in texts[0])
