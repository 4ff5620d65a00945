"""The registry keeps its promises: every primitive is tested by being registered.

A new function class must come with a derivative worked out by hand (its closed form at a
point) in tests/test_functions.py; this file fails until it does, the way the fuzz suite
refuses a function without a reference.
"""
from __future__ import annotations

import itertools
import math
import re

import mpmath
import numpy as np
import pytest

import test_functions as hand
from conftest import accuracy_script
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


accuracy = accuracy_script()


def _probes() -> list[float]:
    values = [0.5, 1.0, 2.0, 3.0, 1e-3, 10.0, 1e-200, 1e200, math.pi / 2, math.pi,
              math.asinh(1.0), 20.0, 700.0, 800.0, 1e-310]
    return values + [-v for v in values]


def _exact_zeros(name: str) -> list:
    """Probe arguments, finite and not 0, where the primitive gives 0 and its true value
    (mpmath, 50 digits) is 0 too: an exact zero, not an underflow."""
    function, true = PRIMITIVES[name](), accuracy.REFERENCES[name][()]
    found = []
    for args in itertools.product(_probes(), repeat=PRIMITIVES[name].arity):
        with np.errstate(all="ignore"):
            y = function.forward(*[np.asarray([a]) for a in args])
        if np.asarray(y).reshape(-1)[0] == 0:
            with mpmath.workdps(50):
                if true(*map(mpmath.mpf, args)) == 0:
                    found.append(args)
    return found


@pytest.mark.parametrize("name", sorted(n for n, c in PRIMITIVES.items()
                                        if not c.exact_zeros and n != "keep"))
def test_a_zero_from_arguments_not_zero_is_an_underflow_unless_declared(name):
    """check counts no point where f' and the expectation are 0 by underflow (exp(-900)
    as 0 made a sign error match): it tells that 0 from a value by each primitive's
    exact_zeros. A primitive with an exact 0 at arguments not 0 (x - x, log 1) must say so.
    (keep's second argument is a mask: its 0 pins a convention.)"""
    assert _exact_zeros(name) == []


# (pow_diff's zeros, b(b-1) a^(b-2) at b = 1, are of order 2 and up; it is made of order 1)
@pytest.mark.parametrize("name", sorted(n for n, c in PRIMITIVES.items()
                                        if c.exact_zeros and n != "pow_diff"))
def test_a_primitive_that_declares_exact_zeros_has_one(name):
    assert _exact_zeros(name) != []
