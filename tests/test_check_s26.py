"""adcli check, the twenty-sixth session: an expectation dividing by a product written side
by side (1/2(x^2+1)^(-1/2), read 1/(2(x^2+1)^(-1/2))) that differs read either way is
diagnosed first as likely meant, (1/2)*(x^2+1)^(-1/2), whose slip is the one made.

Each row's mathematics is checked against mpmath first, so a wrong row fails on its own.
"""
from __future__ import annotations

import json

import mpmath as mp
import pytest

from conftest import run_cli

mp.mp.dps = 30
XS = (0.3, 1.7, 4.1)
TIGHTER = "a product written side by side binds tighter than '/'"


def diagnosis(*argv: str) -> list[str]:
    code, out, err = run_cli("check", *argv, "--format", "json")
    assert code == 1, err
    return json.loads(out)["diagnosis"]


CASES = [
    # (f, expectation, f as mpmath, the expectation as read, as meant, the first line)
    ("sqrt(x^2+1)", "1/2(x^2+1)^(-1/2)", lambda x: mp.sqrt(x**2 + 1),
     lambda x: 1 / (2 * (x**2 + 1) ** mp.mpf(-0.5)), lambda x: (x**2 + 1) ** mp.mpf(-0.5) / 2,
     "1/2((x^2) + 1)^((-1)/2) is read as 1/(2*(((x^2) + 1)^((-1)/2))): " + TIGHTER
     + "; read as (1/2)*((x^2) + 1)^((-1)/2), it differs too: this is the derivative of "
     "sqrt with respect to its argument u = (x^2) + 1; the chain rule's factor du/dx is "
     "missing"),
    ("x^3/3", "1/2x^2", lambda x: x**3 / 3, lambda x: 1 / (2 * x**2), lambda x: x**2 / 2,
     "1/2x^2 is read as 1/(2*(x^2)): " + TIGHTER + "; read as (1/2)*x^2, it differs too: "
     "×1/2 everywhere: the expectation is 1/2 times d/dx at every point"),
]


@pytest.mark.parametrize("f, g, f_mp, read, meant, first", CASES,
                         ids=lambda v: v if isinstance(v, str) else "")
def test_a_side_by_side_divisor_wrong_either_way_is_diagnosed_as_meant_first(
        f, g, f_mp, read, meant, first):
    for x in XS:   # wrong either way, so the reading alone is no slip
        slope = mp.diff(f_mp, x)
        assert not mp.almosteq(read(x), slope, 1e-3)
        assert not mp.almosteq(meant(x), slope, 1e-3)
    assert diagnosis(f, g) == [first]


def test_a_side_by_side_divisor_that_matches_as_meant_is_said_once():
    # right as (1/2)*...: the reading is the slip, one line (not also "it differs too")
    said = diagnosis("sqrt(x^2+1)", "1/2(x^2+1)^(-1/2)*2x")
    assert len(said) == 1 and said[0].endswith("as (1/2)*((x^2) + 1)^((-1)/2), the "
                                               "expectation matches")


def test_a_side_by_side_divisor_with_a_story_of_its_own_as_read_keeps_it():
    # x^2's derivative written 1/2x, read 1/(2x) = 1/f': as often meant, said as read alone
    assert diagnosis("x^2", "1/2x") == [
        "the expectation is 1/(df/dx) at every point: the reciprocal of the derivative, as "
        "if the inverse-function rule were turned upside down"]
