"""A step that leaves float64's range in the Hessian's own reverse passes (not in the
forward pass or the gradient's) is looked at again in long double too.

log(x*y) = log x + log y, so its mixed partials are exactly 0 (by hand). At x = 1e160 the
gradient's graph is in range (1/(xy) = 1e-160), but the second pass's 1/(xy)^2 = 1e-320
is subnormal: the two terms of d2/dy dx (d/dy of df/dx), 1/(xy) and -xy/(xy)^2, no longer
cancel and float64 shows 1.1e-165 (found by a tester; before, no warning at all)."""
from __future__ import annotations

import numpy as np
import pytest

import adcli
from conftest import run_cli, strict_json


@pytest.mark.parametrize("text, point, entry", [
    ("log(x*y)", {"x": 1e160, "y": 1.0}, "y,x"),
    ("log(x*y)", {"x": 1e170, "y": 2.0}, "y,x"),
    ("log(x/y)", {"x": 1.0, "y": 1e155}, "x,y"),
])
def test_a_mixed_partial_lost_in_the_hessians_passes_is_said_wrong(text, point, entry):
    result = adcli.parse(text).derivatives(point, order=2)
    i, j = (result.wrt.index(name) for name in entry.split(","))
    assert result.hessian[i, j] != 0.0  # what float64 shows: not the true 0
    judged = result.diagnostics.wider[entry]
    assert abs(judged.wider - 0.0) <= judged.bound  # long double: 0 within its rounding
    assert judged.bound < abs(result.hessian[i, j]) / 10


def test_the_cli_warns_of_it_in_json():
    code, out, err = run_cli("hessian", "log(x*y)", "--at", "x=1e160,y=1", "--format", "json")
    assert code == 0
    warned = strict_json(out)["warnings"]
    assert [(w["kind"], w["function"]) for w in warned] == [("range", "d2/dy dx")]


def test_an_entry_computed_right_is_left_alone():
    # x^2*y^2 at x = 1e100: every step in range, no warning, H = [[2y^2, 4xy], [4xy, 2x^2]]
    result = adcli.parse("x^2*y^2").derivatives(x=1e100, y=3.0, order=2)
    assert np.allclose(result.hessian, [[18.0, 1.2e101], [1.2e101, 2e200]], rtol=1e-15, atol=0)
    assert not result.diagnostics.wider


def test_a_value_only_rounded_is_not_said_wrong_for_a_later_passs_overflow():
    # log(x*y) at x = 1e300, y = 1e-300: x*y rounds to 1 and log to 0, where the floats'
    # exact product gives ~1e-17 (rounding, not range: grad and eval say nothing there);
    # only the Hessian's 1/y^2 = 1e600 overflows, in d2/dy dy (-inf, rightly)
    result = adcli.parse("log(x*y)").derivatives(x=1e300, y=1e-300, order=2)
    assert result.value == 0.0 and result.hessian[1, 1] == -np.inf
    assert "" not in result.diagnostics.wider
    code, out, err = run_cli("hessian", "log(x*y)", "--at", "x=1e300,y=1e-300",
                             "--format", "json")
    assert "range" not in [w["kind"] for w in strict_json(out)["warnings"]]
