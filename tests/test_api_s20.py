"""The API's values: masked arrays (np.asarray would drop the mask and compute the hidden
entries as if shown)."""
import numpy as np
import pytest

import adcli
from adcli.errors import ValuesError


def test_a_masked_array_hiding_entries_is_refused_with_what_to_do():
    f = adcli.parse("x^2")
    with pytest.raises(ValuesError, match=r"^x is a masked array with masked entries.*"
                                          r"np\.ma\.filled\(a, np\.nan\).*compressed\(\)"):
        f.grad(x=np.ma.array([1.0, 2.0], mask=[False, True]))


def test_a_masked_array_hiding_nothing_is_its_numbers():
    f = adcli.parse("x^2 * y")
    shown = np.ma.array([1.0, 3.0], mask=[False, False])
    grads = f.grad(x=shown, y=2.0)
    assert grads["x"].tolist() == [4.0, 12.0]  # 2xy
    assert f.value(x=np.ma.array([3.0]), y=2.0).tolist() == [18.0]


def test_a_masked_entry_filled_with_nan_gives_nan_there_only():
    f = adcli.parse("sin(x)")
    filled = np.ma.filled(np.ma.array([0.0, 1.0], mask=[False, True]), np.nan)
    grads = f.grad(x=filled)  # (a nan given is no warning of the API's: said in the README)
    assert grads["x"][0] == 1.0 and np.isnan(grads["x"][1])
