"""x^-3/2 is (x^-3)/2 like x^-1/2 is (x^-1)/2, and is said so: a negative power over a
number is the physicist's half-integer power (d/dx x^(-1/2) = -1/2 x^(-3/2))."""
import pytest

from conftest import run_cli, warnings_in


@pytest.mark.parametrize("text, k", [("x^-3/2", "-3"), ("x^-5/2", "-5"), ("x**-1/3", "-1"),
                                     ("x^-1/2", "-1"), ("x^1/2", "1")])
def test_a_negative_or_unit_power_over_a_number_is_said(text, k):
    n = text[-1]
    status, _, err = run_cli("grad", text, "--at", "x=2")
    assert status == 0
    assert warnings_in(err) == [
        f"adcli: warning: x^{k}/{n}: the power is x^{k}, and /{n} divides after it (a power "
        f"comes before a division); for x to the power {k}/{n}, write x^({k}/{n})"]


@pytest.mark.parametrize("text, at", [("x^3/2", "x=2"), ("x^2/2", "x=2"),
                                      ("x^-3/y", "x=2,y=3"),
                                      ("x^-3/1", "x=2"),      # x^(-3/1) changes nothing
                                      ("x^-3/2^2", "x=2")])   # the divisor is 2^2
def test_a_power_halved_is_not_said(text, at):
    status, _, err = run_cli("grad", text, "--at", at)
    assert status == 0 and warnings_in(err) == [], err


def test_check_takes_the_half_integer_power_meant():
    # d/dx x^(-1/2) = -1/2 x^(-3/2) (by hand); as typed, -1/2 x^-3/2 is -1/(2 x^-3 * 2)
    status, out, _ = run_cli("check", "x^(-1/2)", "-1/2 x^-3/2", "--format", "plain")
    assert status == 1
    assert out.splitlines()[1] == (
        "diagnosis: -1/2 x^-3/2 is read otherwise than it was likely meant (see the "
        "warnings); as ((-1)/2)*(x^((-3)/2)), the expectation matches")
