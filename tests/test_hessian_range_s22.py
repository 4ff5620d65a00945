"""A Hessian entry whose truth is beyond float64's range gets its long double warning, as a
first partial does.

log(x^2) at x = 1e-170: x^2 = 1e-340 underflows to 0 in float64, so f = -inf, f' = 2/x
comes out inf and f'' = -2/x^2 comes out nan (inf - inf in the second pass). By hand:
f = 2 ln x = -782.879, f' = 2/x = 2e170, f'' = -2/x^2 = -2e340; long double holds all three.
drivers.hessian kept its entries in float64, so long double's -2e340 was -inf before it
was judged, and an inf is no witness: the nan went unsaid. With y as a factor,
log(x^2) y at (1e-170, 1): d2/dx2 = -2y/x^2 = -2e340, d2/dx dy = 2/x = 2e170, d2/dy2 = 0.
"""
from __future__ import annotations

import json
import re

import mpmath
import numpy as np
import pytest

from adcli import wider
from adcli.report import number_digits
from conftest import run_cli, warnings_in

pytestmark = pytest.mark.skipif(not wider.WIDE, reason="numpy's long double is float64 here")
mpmath.mp.dps = 50

X = 1e-170
SECOND = -2 / mpmath.mpf(X) ** 2      # d2/dx2 of log(x^2), x exactly the float 1e-170


def range_said(err: str) -> dict:
    """Per subject, the (long double, float64) numbers of its range warning, as mpf."""
    said = {}
    for line in warnings_in(err):
        found = re.search(r"warning: (.+?) at 1 of 1 point: an intermediate step .* it is "
                          r"(\S+) where float64 gives (\S+): the", line)
        if found:
            said[found.group(1)] = (mpmath.mpf(found.group(2)), found.group(3))
    return said


def test_a_hessian_entry_beyond_float64_is_warned_of_with_its_number():
    code, out, err = run_cli("hessian", "log(x^2)", "--at", f"x={X!r}", "--format", "plain")
    assert code == 0
    said = range_said(err)
    assert set(said) == {"the value", "d/dx", "d2/dx2"}
    number, shown = said["d2/dx2"]
    assert shown == "nan"
    assert abs(number / SECOND - 1) < 1e-13      # 14 digits of -2e340, not -inf
    assert abs(said["d/dx"][0] / (2 / mpmath.mpf(X)) - 1) < 1e-13


def test_json_names_the_entry_and_gives_float64s_rounding_of_it():
    code, out, err = run_cli("hessian", "log(x^2)", "--at", f"x={X!r}", "--format", "json")
    assert code == 0
    ranged = {w["function"]: w["long_double"] for w in json.loads(out)["warnings"]
              if w["kind"] == "range"}
    # JSON's numbers are float64: -2e340 rounds to -inf there
    assert ranged["d2/dx2"] == "-inf"


def test_every_entry_of_a_mixed_hessian_is_judged():
    code, out, err = run_cli("hessian", "log(x^2)*y", "--at", f"x={X!r},y=1", "--format",
                             "plain")
    assert code == 0
    said = range_said(err)
    hessian = {k: v for k, v in said.items() if k.startswith("d2/")}
    # d2/dy2 = 0 is shown as 0: nothing to say of it
    assert set(hessian) == {"d2/dx2", "d2/dx dy", "d2/dy dx"}
    assert abs(hessian["d2/dx2"][0] / SECOND - 1) < 1e-13
    for mixed in ("d2/dx dy", "d2/dy dx"):
        assert abs(hessian[mixed][0] / (2 / mpmath.mpf(X)) - 1) < 1e-13
        assert hessian[mixed][1] == "inf"


def test_an_entry_float64_rounds_honestly_to_inf_is_not_warned_of():
    # 1/x at 1e-120: d2/dx2 = 2/x^3 = 2e360, beyond float64: its inf is the right rounding
    code, out, err = run_cli("hessian", "1/x", "--at", "x=1e-120", "--format", "plain")
    assert code == 0
    assert "inf" in out.split()
    assert not [line for line in warnings_in(err) if "d2/dx2" in line]


def test_grad_order_2_shows_floats_rounding_and_says_nothing_of_it():
    # Taylor mode's d2/dx2 of log(x^2) at 1e-170 is -inf: -2e340 rounded, no wrong number
    code, out, err = run_cli("grad", "log(x^2)", "--order", "2", "--at", f"x={X!r}",
                             "--format", "json")
    assert code == 0
    point = json.loads(out)["points"][0]
    assert json.dumps(point).count('"-inf"') == 2      # f and d2/dx2
    assert not [w for w in json.loads(out)["warnings"]
                if w["kind"] == "range" and w["function"] != "value"]


@pytest.mark.parametrize("number, text", [
    (np.longdouble(-2) / np.longdouble(X) ** 2, "-2e+340"),
    (np.longdouble("1.5e400"), "1.5e+400"),
    (np.longdouble(-2) / np.longdouble(3e-170) ** 2, "-2.2222222222222e+339"),
    (2e170, "2e+170"),
])
def test_number_digits_keeps_a_long_double_beyond_float64(number, text):
    assert number_digits(number) == text
