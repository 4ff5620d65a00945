"""Session 27, the reader's helper, parser.py's cautions: a glued product divisor (2π, 2x)
followed by a space and another factor, 1/2π √(k/m), is warned of as 1/π √(k/m) and 1/2 x
are; a power's number with a run of factors glued on, e^2\\pi\\omega t, is said whole."""
import json
import math

import pytest

import adcli
from conftest import run_cli

SIDE_BY_SIDE = "a product written side by side binds tighter than '/'"


def _eval(text, at):
    code, out, err = run_cli("eval", text, "--at", at, "--format", "json")
    assert code == 0, err
    return json.loads(out)["points"][0]["value"], err


@pytest.mark.parametrize("text, at, value, write", [
    ("1/2π √(k/m)", "k=4,m=1", 1 / (4 * math.pi), "write 1/(2*pi)*sqrt(k/m)"),
    ("h/2π ω", "h=3,ω=5", 3 / (2 * math.pi * 5), "write h/(2*pi)*ω"),
    ("1/2π x", "x=2", 1 / (4 * math.pi), "write 1/(2*pi)*x"),
    ("1/2x y", "x=2,y=3", 1 / 12, "write 1/(2*x)*y"),
    ("1/2\\pi x", "x=2", 1 / (4 * math.pi), "write 1/(2*pi)*x"),
    ("1/(x+1)(x+2) 3", "x=1", 1 / 18, "write 1/((x + 1)*(x + 2))*3"),
])
def test_glued_divisor_then_a_space_is_warned_of(text, at, value, write):
    got, err = _eval(text, at)
    assert got == pytest.approx(value, rel=1e-15)
    assert SIDE_BY_SIDE in err and write in err


@pytest.mark.parametrize("text", ["1/2π", "1/2x", "1/2πx", "1/(2π)*x", "1/2π*x"])
def test_glued_divisor_with_no_space_after_is_not_warned_of(text):
    _, err = _eval(text, "x=2")
    assert SIDE_BY_SIDE not in err


@pytest.mark.parametrize("text, run", [
    (r"e^2\pi\omega t", r"2\pi\omega t"), ("e^2πω t", "2πω"), (r"e^-2\pi t", r"-2\pi t"),
    (r"e^2\pi\sin t", r"2\pi")])
def test_a_run_glued_to_a_power_is_said_whole(text, run):
    cautions = adcli.parse(text).cautions
    assert len(cautions) == 1
    assert cautions[0].endswith(f"for e to the power {run}, write e^({run})")


def test_the_run_glued_to_a_power_is_read_as_it_was_and_offered_whole():
    # e^2 π ω t at ω = 3, t = 0.5, by the rules (the exponent is the 2 alone)
    got, err = _eval(r"e^2\pi\omega t", "ω=3,t=0.5")
    assert got == pytest.approx(math.e ** 2 * math.pi * 1.5, rel=1e-15)
    assert "write e^(2\\pi\\omega t)" in err
