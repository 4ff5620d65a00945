"""A JSON Lines field nested as deep as json reads passes through every output: finite_json
was recursive (two frames a level), so 600 levels, which json reads, stopped the run with
'the input is too large to handle (RecursionError)' and lost the rows before it."""
from __future__ import annotations

import json

import pytest

from conftest import run_cli


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_a_field_nested_600_levels_passes_through(tmp_path, fmt):
    nested = "[" * 600 + "NaN" + "]" * 600
    path = tmp_path / "deep.jsonl"
    path.write_text(f'{{"x": 1, "d": 1}}\n{{"x": 2, "d": {nested}}}\n')
    code, out, err = run_cli("eval", "x^2", "--points", str(path), "--format", fmt)
    assert (code, err) == (0, "")
    # NaN, which JSON has no spelling for, is written as adcli writes nan
    written = "[" * 600 + '"nan"' + "]" * 600
    if fmt == "csv":
        quoted = '"' + written.replace('"', '""') + '"'     # (CSV quotes a field with '"')
        assert out.splitlines() == ["d,x,f", "1,1.0,1.0", f"{quoted},2.0,4.0"]
    else:
        rows = [json.loads(line) for line in out.splitlines()]
        assert [r["value"] for r in rows] == [1.0, 4.0]
        assert json.dumps(rows[1]["extra"]["d"], separators=(",", ":")) == written
