"""eval shows values: only kinks that a diff() inside the expression differentiates through
can make a number shown a convention (diff(abs(x), x) at 0 is abs's), not a kink outside it
(|x| itself at 0 is 0, a fact) nor one the diff() takes in another variable (d/dx of
|y|·x is |y|, a value)."""
import pytest

from conftest import run_cli, warnings_in

ABS_KINK = ("adcli: warning: abs is not differentiable at 1 of 1 point (an argument of 0, a "
            "corner): its derivative there is a convention, not a fact")


@pytest.mark.parametrize("text, at, value", [
    ("diff(x^2,x) + abs(x)", "x=0", 0.0),          # 2x + |x| at 0
    ("diff(abs(y)*x, x) + abs(y)", "x=1,y=0", 0.0),  # |y| + |y| at y = 0
    ("diff(abs(x)*y, y)", "x=0,y=1", 0.0),           # |x| at 0
])
def test_a_kink_no_diff_differentiates_through_is_not_warned(text, at, value):
    code, out, err = run_cli("eval", text, "--at", at, "--format", "plain")
    assert code == 0 and float(out) == value
    assert warnings_in(err) == []


@pytest.mark.parametrize("text, at", [
    ("diff(abs(x),x)", "x=0"),                     # abs's convention, 0, is the number
    ("diff(diff(abs(x)*y,x),y)", "x=0,y=1"),       # d/dx |x| y, then d/dy: sign(x) at 0
    ("diff(abs(x),x) + abs(x)", "x=0"),            # the one inside, said once
])
def test_a_kink_a_diff_differentiates_through_is_warned(text, at):
    code, out, err = run_cli("eval", text, "--at", at, "--format", "plain")
    assert code == 0 and float(out) == 0.0
    assert warnings_in(err) == [ABS_KINK]


def test_grad_of_an_expression_with_diff_still_warns_of_every_kink_on_its_way():
    # d/dx (2x + |x|) at 0: |x|'s kink is on the gradient's way
    code, _, err = run_cli("grad", "diff(x^2,x) + abs(x)", "--at", "x=0", "--format", "plain")
    assert code == 0 and warnings_in(err) == [ABS_KINK]
