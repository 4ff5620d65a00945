"""check's and trace's JSON write a --digits number as CSV and tables do (%g: 3.89e+07),
as grad's does since this session, not the rounded float's repr (38900000.0).
At x = 3600: x^3 = 46,656,000,000 (4.67e+10 to 3 digits), 3x^2 = 38,880,000 (3.89e+07)."""
import re

from conftest import run_cli, strict_json


def _numbers_written(out: str, key: str) -> list[str]:
    return re.findall(rf'"{key}": ([-0-9.e+]+)', out)


def test_check_json_writes_rounded_numbers_as_csv_does():
    code, out, _ = run_cli("check", "x^3", "3x^2", "--at", "x=3600", "--digits", "3",
                           "--format", "json")
    assert code == 0
    strict_json(out)
    assert set(_numbers_written(out, "ad")) == {"3.89e+07"}
    assert _numbers_written(out, "value") == ["4.67e+10"]
    assert '"x": 3600.0' in out   # coordinates are never rounded


def test_check_json_lines_too():
    code, out, _ = run_cli("check", "x^3", "3x^2", "--at", "x=3600", "--digits", "3",
                           "--format", "jsonl")
    assert code == 0
    assert _numbers_written(out.splitlines()[0], "expected") == ["3.89e+07"]


def test_trace_json_writes_rounded_numbers_as_csv_does():
    code, out, _ = run_cli("trace", "x^3", "--at", "x=3600", "--digits", "3",
                           "--format", "json")
    assert code == 0
    document = strict_json(out)
    assert document["points"][0]["gradient"]["x"] == 3.89e7
    assert '"gradient": {"x": 3.89e+07}' in out
    assert '"value": 4.67e+10' in out
