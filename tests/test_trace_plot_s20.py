"""A tester's findings (session 20): plot's derivatives across a kink between samples,
trace's forward mode and kinks its --wrt never passes through, folded gradient rows on
a narrow terminal, why a trace's first non-finite step is so, max(x, x)'s note."""
from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

from adcli.commands import plot
from adcli.functions import Log, Pow, Sqrt
from adcli.plotting import pieces
from conftest import adcli_rows_on_terminal, run_cli


# ----- plot: a kink between two samples breaks the derivatives ----------------------------

def drawn(monkeypatch, tmp_path, *args):
    """The figure ``adcli plot ARGS -o FILE`` draws, and each curve's unbroken stretches as
    the renderers get them."""
    figures = []
    monkeypatch.setattr(plot, "_save", lambda figure, path: figures.append(figure))
    code, _, err = run_cli("plot", *args, "-o", str(tmp_path / "fig.png"))
    assert code == 0, err
    figure, = figures
    return figure, {c.label: pieces(figure.x, c.y, figure.view, c.slope,
                                    *([c.breaks] if hasattr(c, "breaks") else []))
                    for c in figure.curves}


def sides_of(stretches, kink):
    """The stretches' x as (left of the kink, right of it), none crossing it."""
    for xs, _ in stretches:
        assert not xs.min() < kink < xs.max(), f"a line drawn across the kink at {kink}"
    left = [p for p in stretches if p[0].max() < kink]
    right = [p for p in stretches if p[0].min() > kink]
    return left, right


# (expression, grid, the kink, f' left and right of it, by hand)
KINKED = [
    ("abs(x)", "x=-1:2", 0.0, -1.0, 1.0),
    ("abs(x)", "x=-1:1:400", 0.0, -1.0, 1.0),
    ("max(x,0)", "x=-1:1:400", 0.0, 0.0, 1.0),
    ("abs(x - 0.3)", "x=-1:1:400", 0.3, -1.0, 1.0),
    ("min(x, 1 - x)", "x=-1:1:400", 0.5, 1.0, -1.0),
]


@pytest.mark.parametrize("expression, grid, kink, left_slope, right_slope", KINKED)
def test_a_kink_between_samples_breaks_the_derivative(monkeypatch, tmp_path, expression,
                                                      grid, kink, left_slope, right_slope):
    figure, stretches = drawn(monkeypatch, tmp_path, expression, "--grid", grid)
    assert kink not in figure.x          # the kink falls between two samples
    left, right = sides_of(stretches["df/dx"], kink)
    assert left and right
    assert all(np.all(ys == left_slope) for _, ys in left)
    assert all(np.all(ys == right_slope) for _, ys in right)
    # f is continuous there: one line through the kink
    assert len(stretches["f"]) == 1


def test_sign_times_x_squared_breaks_both_derivatives(monkeypatch, tmp_path):
    # f = sign(x) x^2 = x|x|: f' = 2|x|, f'' = 2 sign(x), which jumps from -2 to 2 at 0
    figure, stretches = drawn(monkeypatch, tmp_path, "sign(x)*x^2", "--grid", "x=-1:1:400",
                              "--order", "2")
    left, right = sides_of(stretches["d2f/dx2"], 0.0)
    assert all(np.all(ys == -2.0) for _, ys in left) and left
    assert all(np.all(ys == 2.0) for _, ys in right) and right
    # f' = 2|x| is continuous at 0 (its kink is f's steps', not f''s): one line through it
    ((xs, ys),) = stretches["df/dx"]
    assert xs.min() < 0 < xs.max()
    np.testing.assert_allclose(ys, 2 * np.abs(xs), rtol=1e-15)
    assert len(stretches["f"]) == 1


@pytest.mark.parametrize("expression, slope", [
    ("abs(x)^2", lambda x: 2 * x), ("max(x,0)+min(x,0)", lambda x: np.ones_like(x))])
def test_a_derivative_continuous_across_a_kink_of_f_s_steps_is_not_broken(
        monkeypatch, tmp_path, expression, slope):
    # |x|^2 = x^2 and max(x,0)+min(x,0) = x: abs's and max's kinks are inside, f' is smooth
    _, stretches = drawn(monkeypatch, tmp_path, expression, "--grid", "x=-1:1:6")
    ((xs, ys),) = stretches["df/dx"]
    assert (xs.min(), xs.max()) == (-1.0, 1.0)
    np.testing.assert_allclose(ys, slope(xs), rtol=1e-15, atol=1e-15)


@pytest.mark.parametrize("expression", ["x^2", "atan2(x, -1)", "abs(x + 5)"])
def test_no_kink_crossed_no_break(monkeypatch, tmp_path, expression):
    # atan2 jumps across its branch cut, but its derivative 1/(1 + x^2) there is smooth;
    # abs(x + 5)'s kink is outside the range
    _, stretches = drawn(monkeypatch, tmp_path, expression, "--grid", "x=-1:1:400")
    assert len(stretches["df/dx"]) == 1


# ----- trace --mode forward: only kinks the derivative passes through ---------------------

def test_forward_trace_is_quiet_about_a_kink_its_variable_skips():
    code, out, err = run_cli("trace", "abs(y)*x", "--at", "x=1,y=0", "--mode", "forward",
                             "--wrt", "x")
    assert code == 0, err
    assert "convention" not in out and "not differentiable" not in out + err
    # d/dx abs(y) x = abs(y) = 0
    assert re.search(r"∂f/∂x = v̇4 = (\S+)", out).group(1) == "0.0"
    code, out, _ = run_cli("trace", "abs(y)*x", "--at", "x=1,y=0", "--mode", "forward",
                           "--wrt", "x", "--format", "json")
    assert "warnings" not in json.loads(out)


def test_forward_trace_still_says_a_kink_its_variable_passes_through():
    code, out, err = run_cli("trace", "abs(y)*x", "--at", "x=1,y=0", "--mode", "forward",
                             "--wrt", "y")
    assert code == 0
    assert "abs is not differentiable at v1 = 0" in out
    assert "abs is not differentiable" in err


def test_a_tangent_whose_terms_are_all_left_out_reads_as_its_0():
    code, out, err = run_cli("trace", "x + sqrt(y)", "--at", "x=1,y=0", "--mode", "forward",
                             "--wrt", "x")
    assert code == 0, err
    row = next(line for line in out.splitlines() if "v̇3 =" in line and "sqrt" in line)
    assert re.search(r"v̇3 = 0\.0  \(left out: v̇2/\(2·v3\), exactly 0", row), row
    assert " = 0 = " not in out
    assert "not differentiable" not in out + err and "convention" not in out + err


# ----- a narrow terminal: folded gradient rows keep their indent --------------------------

on_terminal = adcli_rows_on_terminal


def section(rows, heading):
    start = rows.index(heading) + 1
    return rows[start:]


A, T = 0.123456789, 2.5      # f = exp(-a t): ∂f/∂a = -t f, ∂f/∂t = -a f


@pytest.mark.parametrize("columns, mode, heading, wanted", [
    (40, [], "gradient", {"decay_rate": -T * math.exp(-A * T), "t": -A * math.exp(-A * T)}),
    (34, ["--mode", "forward", "--wrt", "decay_rate"], "derivative",
     {"decay_rate": -T * math.exp(-A * T)}),
])
def test_folded_gradient_rows_keep_their_indent(columns, mode, heading, wanted):
    rows = on_terminal(columns, "trace", "exp(-decay_rate*t)",
                       "--at", f"decay_rate={A!r},t={T!r}", *mode)
    lines = section(rows, heading)
    assert all(line.startswith("  ") for line in lines), lines
    text = "\n".join(lines)
    for name, value in wanted.items():
        # each row starts 2 columns in; a folded one goes on under its "="
        found = re.search(rf"^  ∂f/∂{name} = \S+(?:\n +)? = (\S+)$", text, re.M)
        assert found, lines
        assert math.isclose(float(found.group(1)), value, rel_tol=1e-15)


# ----- why the first non-finite step is so: grad's words ----------------------------------

@pytest.mark.parametrize("argv, said", [
    (["x^n", "--at", "x=-2,n=2"], f"v̄2 is nan: the first non-finite adjoint, where '^' has "
                                  f"a nan or inf derivative ({Pow.derivative_reason})"),
    (["x^n", "--at", "x=-2,n=2", "--mode", "forward", "--wrt", "n"],
     f"is nan: the first non-finite tangent, where '^' has a nan or inf derivative "
     f"({Pow.derivative_reason})"),
    (["log(x)", "--at", "x=-1"], f"the first non-finite value, where log gave nan or inf "
                                 f"({Log.value_reason})"),
    (["sqrt(x)", "--at", "x=0", "--mode", "forward", "--wrt", "x"],
     f"v̇2 is inf: the first non-finite tangent, where sqrt has a nan or inf derivative "
     f"({Sqrt.derivative_reason})"),
])
def test_the_first_non_finite_step_says_why(argv, said):
    code, _, err = run_cli("trace", *argv)
    assert code == 0
    assert said in err, err


# ----- max(x, x): a tie said once ---------------------------------------------------------

@pytest.mark.parametrize("mode", [[], ["--mode", "forward", "--wrt", "x"]])
def test_a_tie_of_one_operand_with_itself_is_said_once(mode):
    code, out, err = run_cli("trace", "max(x,x)", "--at", "x=5", *mode)
    assert code == 0, err
    assert out.count("max is not differentiable") == 1, out
    assert "max is not differentiable at v1 = 5, a tie" in out
    # max(x, x) = x: d/dx = 1, the two halves of the tie added up
    assert re.search(r"∂f/∂x = \S+ = (\S+)", out).group(1) == "1.0"


def test_a_gradient_row_with_a_name_too_wide_to_fold_at_its_equals_stays_indented():
    name = "abcdefghijklmnopqrstuvwxyz_0123"     # ∂f/∂ and it: 35 of the 40 columns
    rows = on_terminal(40, "trace", f"exp({name}*q)", "--at", f"{name}=2,q=0.5")
    lines = section(rows, "gradient")
    assert all(line.startswith("  ") for line in lines), lines
    # f = exp(name q): ∂f/∂name = q f, ∂f/∂q = name f
    words = " ".join(lines).split()
    at = words.index(f"∂f/∂{name}")
    assert words[at + 1:at + 4] == ["=", "v̄1", "="]
    assert math.isclose(float(words[at + 4]), 0.5 * math.exp(1.0), rel_tol=1e-15)
    assert lines[-1].startswith("  ∂f/∂q = v̄2 = ")
