"""A kink, an edge or a nan/inf derivative float64 met only because a step before it lost
its number out of range is not said: the long double run, which sat on no such kink, gives
the true numbers instead (a note's left-over: sqrt(x^2+y^2) at x = y = 1e-200 was told
"sqrt is not differentiable there (an argument of 0)", though its argument is 2e-400 and
f' = (1/sqrt 2, 1/sqrt 2) by hand)."""
from __future__ import annotations

import math
import re

import pytest

from conftest import run_cli, strict_json


def warned(*argv):
    code, out, err = run_cli(*argv, "--format", "json")
    assert code == 0
    return [(w["function"], w["kind"]) for w in strict_json(out).get("warnings", [])], err


def test_an_edge_met_by_underflow_alone_is_not_said():
    said, err = warned("grad", "sqrt(x^2+y^2)", "--at", "x=1e-200,y=1e-200")
    assert said == [("value", "range"), ("d/dx", "range"), ("d/dy", "range")]
    assert "not differentiable" not in err and "a result is nan or inf" not in err
    # the true numbers, by hand: f = sqrt(2)*1e-200, df/dx = df/dy = 1/sqrt(2)
    numbers = [float(n) for n in re.findall(r"it is (\S+) where", err)]
    assert numbers == pytest.approx([math.sqrt(2) * 1e-200, 1 / math.sqrt(2),
                                     1 / math.sqrt(2)], rel=1e-12, abs=0)


def test_the_edge_itself_is_still_said():
    said, err = warned("grad", "sqrt(x^2+y^2)", "--at", "x=0,y=0")
    assert said == [("sqrt", "kink"), ("sqrt", "derivative")]


def test_a_number_beyond_float64_in_truth_keeps_its_warning():
    # 1/x at 1e-320 is 1e320 in truth too: inf is float64's best, and '/' made it
    said, err = warned("grad", "1/x", "--at", "x=1e-320")
    assert said == [("/", "value")]
