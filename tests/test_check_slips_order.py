"""The rank of adcli check's diagnoses (README "Check a derivation", its list of
diagnoses): two rules of the table mixed up is claimed only when no claim above it holds,
and another order of the derivative is one of those. sin's derivative written -sin(x) is
sin'' (the README's own example) and cos' too; it is said as the other order, alone.

Each row's expectation is checked against mpmath's derivative of the order the claim
names, so a wrong row fails on its own.
"""
from __future__ import annotations

import mpmath as mp
import pytest

import adcli

TOO_MANY = ("the expectation is d²/dx² at every point, not d/dx: differentiated one time "
            "too many")
ITSELF = "the expectation is f itself at every point, not d/dx: nothing was differentiated"

OTHER_ORDERS = [
    # f, expectation (a derivative of f of order k, and h'(x) for another function h),
    # k, the one claim
    ("sin(x)", "-sin(x)", (mp.sin, lambda x: -mp.sin(x)), 2, TOO_MANY),     # also cos'
    ("cos(x)", "cos(x)", (mp.cos, mp.cos), 0, ITSELF),                        # also sin'
    ("sinh(x)", "sinh(x)", (mp.sinh, mp.sinh), 0, ITSELF),                   # also cosh'
    ("cosh(x)", "cosh(x)", (mp.cosh, mp.cosh), 0, ITSELF),                   # also sinh'
]


@pytest.mark.parametrize("f, expected, functions, k, claim", OTHER_ORDERS,
                         ids=[f"{row[0]} as {row[1]}" for row in OTHER_ORDERS])
def test_another_order_outranks_two_rules_mixed_up(f, expected, functions, k, claim):
    fn, written = functions
    for x in (-2.3, 0.4, 1.7):      # the row: the expectation is f's k-th derivative
        assert mp.almosteq(mp.diff(fn, x, k), written(x), 1e-20)
    result = adcli.check(f, expected)
    assert result.verdict == "differs"
    assert result.diagnosis == [claim]
