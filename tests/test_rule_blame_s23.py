"""A later pass's trouble inside a backward rule is blamed on the function whose rule it is
(log's gy/x), never on an operator the expression does not have."""
import pytest

from conftest import run_cli, strict_json


@pytest.mark.parametrize("text, function", [
    ("log(x)", "log"), ("log10(x)", "log10"), ("log2(x)", "log2"), ("cbrt(x)", "cbrt"),
    ("sqrt(x)", "sqrt")])
def test_a_hessian_overflow_names_the_function_written(text, function):
    # f'' ~ -1/x^2 (cbrt: -2/9 x^(-5/3)) is beyond float64's range at 1e-300
    status, out, err = run_cli("hessian", text, "--at", "x=1e-300", "--format", "json")
    assert status == 0
    found = strict_json(out)
    assert found["points"][0]["hessian"] == [["-inf"]]
    assert [(w["function"], w["kind"]) for w in found["warnings"]] == [(function, "overflow")]
    assert "'/'" not in err and f"through {function} overflowed" in err, err


def test_a_division_written_keeps_its_own_name():
    status, out, _ = run_cli("hessian", "1/x", "--at", "x=1e-300", "--format", "json")
    assert status == 0
    assert [w["function"] for w in strict_json(out)["warnings"]] == ["/"]


def test_the_api_hessian_names_log(recwarn):
    import adcli

    adcli.parse("log(x)").hessian(x=1e-300)
    said = [str(w.message) for w in recwarn]
    assert any("through log overflowed" in s for s in said) and \
        not any("'/'" in s for s in said), said


def test_an_overflow_in_a_written_divisions_rule_names_the_division():
    # atan(1/x)'' at 1e-160 passes through 1/x's rule -gy*y/x, whose '*' overflows (1e320):
    # the '/' written is named, as an overflow (not left to the range witness alone)
    status, out, err = run_cli("hessian", "atan(1/x)", "--at", "x=1e-160", "--format", "json")
    assert status == 0
    kinds = [(w["function"], w["kind"]) for w in strict_json(out)["warnings"]]
    assert ("/", "overflow") in kinds and not any(f == "*" for f, _ in kinds), kinds
