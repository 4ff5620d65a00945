"""A result never shares memory with the values given, told by the memory each array is a
view of (np.may_share_memory of every result against every input was quadratic: 2.7 s of
a 4.2 s grad of a sum of 2,000 variables)."""
import numpy as np
import pytest

import adcli


@pytest.mark.parametrize("how", ["value", "grad_of_y"])
def test_a_view_of_a_callers_table_is_copied(how):
    table = np.arange(1.0, 13.0).reshape(4, 3)
    x, y = table[:, 0], table[1:2, 2]            # views of the caller's table
    f = adcli.parse("x + 0*y" if how == "grad_of_y" else "x")
    got = f.grad(x=x, y=y)["y"] if how == "grad_of_y" else f.value(x=x)
    got_value = f.value(x=x, y=y) if how == "grad_of_y" else got
    assert not np.shares_memory(got_value, table) and not np.shares_memory(got, table)
    table[:] = -1.0
    assert got_value.tolist() == [1.0, 4.0, 7.0, 10.0]


def test_many_variables_give_their_own_gradients():
    names = [f"v{i}" for i in range(300)]
    values = {name: np.array([float(i), 2.0 * i]) for i, name in enumerate(names)}
    grads = adcli.parse("+".join(f"{n}^2" for n in names)).grad(**values)
    for i, name in enumerate(names):
        assert grads[name].tolist() == [2.0 * i, 4.0 * i]
        assert not np.shares_memory(grads[name], values[name])
