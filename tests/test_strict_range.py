"""--strict stops at the first point with a nan or inf result and says why, also when the
reason is the long double witness's (a kind keyed by a variable, not a function).

x/x at 1e-320: its value is 1, but the rule's 1/x overflows and d/dx = 1/x - x/x^2 comes
out inf - inf = nan, where long double gives 0 (the derivative of 1, by hand)."""
from conftest import run_cli


def test_strict_names_the_long_double_finding_of_a_variable():
    code, out, err = run_cli("grad", "--at", "x=1e-320", "--format", "json", "--strict",
                             "--", "abs(abs(x/x))")
    assert code == 3, err
    assert "internal error" not in err and err.count("\n") == 1
    # (1/x = 1e320 overflows at a divisor far from 0: an overflow, no edge of '/')
    assert err.startswith("adcli: error: the derivative through '/' overflowed at x=1e-320")
    assert ("; d/dx at x=1e-320: an intermediate step overflowed or underflowed in float64, "
            "and computed again in long double") in err
    assert "it is 0," in err and err.endswith("stopped there (--strict)\n")
