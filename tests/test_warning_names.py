"""What a warning names and why it says it happened, as a script reads them in JSON
(two testers' findings: a stray quote in jacobian's names, a false reason at --order N)."""
from __future__ import annotations

import pytest

from conftest import run_cli, strict_json


@pytest.mark.parametrize("argv, named", [
    (("jacobian", "x", "1/x", "--at", "x=0"), "/ in f2"),
    (("jacobian", "x", "x^y", "x*y", "--at", "x=1e200,y=2"), "^ in f2"),
    (("grad", "1/x", "--at", "x=0"), "/"),
])
def test_an_operator_is_named_without_quotes_in_json(argv, named):
    code, out, err = run_cli(*argv, "--format", "json")
    assert code == 0
    assert [w["function"] for w in strict_json(out)["warnings"]] == [named]


def test_on_stderr_the_operator_keeps_its_quotes():
    code, out, err = run_cli("jacobian", "x", "1/x", "--at", "x=0", "--format", "csv")
    assert "'/' in f2 gave nan or inf" in err


@pytest.mark.parametrize("argv", [
    ("grad", "log(x)", "--at", "x=1e-200", "--order", "2"),   # log'' = -1/x^2 = -1e400
    ("grad", "log(x)", "--at", "x=1e-300", "--order", "3"),   # log''' = 2/x^3 = 2e900
    ("grad", "log(x)", "--at", "x=1e-100", "--order", "4"),   # -6/x^4 = -6e400
])
def test_order_n_says_overflow_inside_the_domain_not_an_edge(argv):
    code, out, err = run_cli(*argv, "--format", "json")
    warned = strict_json(out)["warnings"]
    assert [w["kind"] for w in warned] == ["overflow"]
    assert "edge of its domain or" not in err


def test_a_quotient_overflowing_inside_its_domain_says_overflow():
    # 1/x's d2/dx2 = 2/x^3 = 2e600 at 1e-200, a divisor far from 0: an overflow, as x^-1's
    code, out, err = run_cli("grad", "1/x", "--at", "x=1e-200", "--order", "2",
                             "--format", "json")
    assert [(w["function"], w["kind"]) for w in strict_json(out)["warnings"]] == \
        [("/", "overflow")]


def test_order_n_at_an_edge_still_says_edge():
    # sqrt'' = -x^(-3/2)/4: -inf at 0, the edge of sqrt's domain
    code, out, err = run_cli("grad", "sqrt(x)", "--at", "x=0", "--order", "2",
                             "--format", "json")
    kinds = {(w["function"], w["kind"]) for w in strict_json(out)["warnings"]}
    assert ("sqrt", "derivative") in kinds and ("sqrt", "overflow") not in kinds
