"""The twenty-first session's fixes made by hand (the helpers' are in their own files)."""
import warnings

import pytest

import adcli
from adcli.errors import AdcliWarning
from conftest import run_cli, warnings_in


def test_an_unused_let_name_does_not_rename_the_output_column():
    # f is free for the output: the definition named f is used nowhere (and said so).
    code, out, err = run_cli("grad", "x^2", "--let", "f=3", "--at", "x=1", "--format", "csv")
    assert code == 0
    assert out.splitlines()[0] == "x,f,df/dx"
    assert warnings_in(err) == ["adcli: warning: --let f: f is not used by the expression"]


def test_a_used_let_name_still_keeps_the_output_column_apart():
    code, out, _ = run_cli("jacobian", "f1", "f1+f2", "--let", "f1=x^2", "--let", "f2=x",
                           "--wrt", "x", "--at", "x=3", "--format", "csv")
    assert code == 0
    header = out.splitlines()[0].split(",")
    assert "f1" not in header and "f2" not in header


def test_the_api_says_an_unused_definition_as_the_cli_does():
    with pytest.warns(AdcliWarning, match=r"^definitions\['F'\]: F is not used by the "
                                          r"expression$"):
        expression = adcli.parse("x^2", definitions={"F": "3"})
    assert expression.value(x=2.0) == 4.0


def test_the_api_says_nothing_of_a_used_definition():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        expression = adcli.parse("F + x", definitions={"F": "x^2"})
    assert expression.value(x=3.0) == 12.0
