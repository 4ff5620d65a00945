"""The registry keeps its promises: every primitive is tested by being registered.

A new function class must come with a derivative worked out by hand (its closed form at a
point) in tests/test_functions.py; this file fails until it does, the way the fuzz suite
refuses a function without a reference.
"""
from __future__ import annotations

import re

import pytest

import test_functions as hand
from adcli.functions import CALLABLE, OPERATORS, PRIMITIVES

# Primitives that appear only inside backward rules, never in user text: keep pins
# conventions; the others (sech2, datan2, pow_diff, ...) are accurate forms of derivatives,
# checked with their own derivatives against mpmath in tests/test_accuracy.py.
ENGINE_HELPERS = {n for n, cls in PRIMITIVES.items() if not cls.callable and not cls.symbol}


def _rows(test) -> list[str]:
    """The expression text of each row of a parametrised test."""
    mark = next(m for m in test.pytestmark if m.name == "parametrize")
    return [row[0] for row in mark.args[1]]


def _hand_tested() -> set[str]:
    texts = [text for text, *_ in hand.HAND_DERIVATIVES] + list(hand.OPERATOR_FORMULAS)
    texts += _rows(hand.test_binary_derivative_at_hand_derived_points)
    texts += _rows(hand.test_unary_operators_and_precedence_against_hand_derived_values)
    names = set()
    for text in texts:
        names |= {CALLABLE[n].name for n in re.findall(r"[a-z]\w*(?=\()", text) if n in CALLABLE}
        names |= {cls.name for spelling, cls in OPERATORS.items() if spelling in text}
        if re.match(r"\s*-", text):
            names.add("neg")
    return names


@pytest.mark.parametrize("name", sorted(set(PRIMITIVES) - ENGINE_HELPERS))
def test_every_primitive_has_a_hand_derived_derivative_test(name):
    assert name in _hand_tested(), (
        f"{name}: add its derivative at a point, worked out by hand, to HAND_DERIVATIVES "
        "(or the binary/operator tables) in tests/test_functions.py")
