"""JSON's "range" and "unsure" warnings carry, per point, the other witness's number: the
long double run's ("long_double", with "give_or_take" where that is its own rounding) or
forward mode's ("forward_mode"). stderr names only the first point's.

x^3/(1 + x^4) at x >= 1e79: x^4 overflows in float64, so f and f' come out 0; the truth,
by hand, is f = x^3/(1 + x^4) and f' = (3x^2 - x^6)/(1 + x^4)^2, taken here by mpmath at
50 digits.
"""
from __future__ import annotations

import json

import mpmath as mp
import numpy as np
import pytest

from adcli.diagnostics import Diagnostics, Unsure
from adcli.report import warned
from conftest import run_cli

mp.mp.dps = 50


def _truth(x: float) -> tuple[float, float]:
    x = mp.mpf(x)
    return float(x**3 / (1 + x**4)), float((3 * x**2 - x**6) / (1 + x**4) ** 2)


def _by_point(warnings: list) -> dict:
    return {(w["at"]["x"], w["function"]): w for w in warnings}


def test_json_gives_each_points_long_double_number():
    code, out, err = run_cli("grad", "x^3/(1+x^4)", "--grid", "x=1e79:1e81:3",
                             "--format", "json")
    assert code == 0
    found = _by_point(json.loads(out)["warnings"])
    assert len(found) == 6
    for x in (1e79, 5.05e80, 1e81):
        value, slope = _truth(x)
        assert found[(x, "value")]["long_double"] == pytest.approx(value, rel=1e-13, abs=0)
        assert found[(x, "d/dx")]["long_double"] == pytest.approx(slope, rel=1e-13, abs=0)
        assert "give_or_take" not in found[(x, "d/dx")]
    assert "it is 1e-79 where float64 gives 0 (first at x=1e+79)" in err


def test_jsonl_gives_each_point_its_own_number():
    code, out, _ = run_cli("grad", "x^3/(1+x^4)", "--grid", "x=1e79:1e81:3",
                           "--format", "jsonl")
    assert code == 0
    for line in out.splitlines():
        point = json.loads(line)
        value, slope = _truth(point["at"]["x"])
        numbers = {w["function"]: w["long_double"] for w in point["warnings"]}
        assert numbers["value"] == pytest.approx(value, rel=1e-13, abs=0)
        assert numbers["d/dx"] == pytest.approx(slope, rel=1e-13, abs=0)


def test_a_number_that_is_its_own_rounding_says_how_far():
    # log(x^2 + 1) - 2 log x at 1e200: f' = 2x/(x^2 + 1) - 2/x = -2/(x(x^2 + 1)) ~ -2e-600;
    # long double's own cancellation leaves ~1e-219, give or take ~1e-216 (wider.SPREAD)
    code, out, err = run_cli("grad", "log(x^2+1) - 2*log(x)", "--at", "x=1e200",
                             "--format", "json")
    entry = _by_point(json.loads(out)["warnings"])[(1e200, "d/dx")]
    assert entry["kind"] == "range"
    assert abs(entry["long_double"]) < entry["give_or_take"] < 1e-200
    assert f"give or take {entry['give_or_take']:.2g} (its own rounding)" in err


def test_jacobian_names_the_row_and_gives_its_number():
    code, out, _ = run_cli("jacobian", "x^3/(1+x^4)", "x", "--at", "x=1e80", "--format", "json")
    found = _by_point(json.loads(out)["warnings"])
    value, slope = _truth(1e80)
    assert found[(1e80, "f1")]["long_double"] == pytest.approx(value, rel=1e-13, abs=0)
    assert found[(1e80, "df1/dx")]["long_double"] == pytest.approx(slope, rel=1e-13, abs=0)


def test_unsure_numbers_are_kept_per_point_through_merge_and_naming():
    # (the CLI's unsure warnings appear only where long double is float64: made by hand)
    diagnostics = Diagnostics((4,))
    bad = np.array([False, True, False, True])
    diagnostics.add_unsure("x", bad, Unsure(1, {"x": 2.0}, 5.0, 7.0),
                           np.array([0.0, 5.0, 0.0, -3.0]))
    merged = Diagnostics((4,))
    merged.merge(diagnostics)
    merged.name_output("f2")
    [(key, indices, numbers)] = warned(merged)
    assert key[:2] == ("df2/dx", "unsure")
    assert indices.tolist() == [1, 3]
    assert numbers["forward_mode"].tolist() == [5.0, -3.0]
