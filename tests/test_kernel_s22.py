"""The kernel's finite check skips an input that sin or cos looked at with no point past
FAR; a nan or inf in any input must still make a block's results 'perhaps not finite'."""
import numpy as np
import pytest

import adcli
from adcli import kernel

N = 200_000  # several blocks, so the bad point is in a later one


def _finite(text, columns):
    e = adcli.parse(text)
    return kernel.program(e, e.variables, 1).run(columns, N)[2]


@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
@pytest.mark.parametrize("column", ["x1", "x2"])
def test_a_nan_or_inf_in_any_input_is_seen(bad, column):
    columns = {"x1": np.linspace(-1, 1, N), "x2": np.linspace(0, 1, N)}
    columns[column][123_457] = bad
    assert _finite("sin(x1)+x1*x2", columns) is False


def test_far_but_finite_points_are_finite():
    columns = {"x1": np.linspace(-1, 1, N), "x2": np.linspace(0, 1, N)}
    columns["x1"][123_457] = 1e300   # past FAR: sin's step repairs it, and it is finite
    assert _finite("sin(x1)+x1*x2", columns) is True


