"""check given one equation whose left side names no derivative ("x^2 = 2x", "x^2 → 2x"):
one error, in one round, naming both ways check reads it."""
import pytest

from conftest import run_cli


@pytest.mark.parametrize("text, column, f, g", [
    ("x^2 = 2x", 5, "x^2", "2x"),
    ("sin x = cos x", 7, "sin x", "cos x"),
    ("x^2 \\to 2x", 5, "x^2", "2x"),
    ("x^2 → 2x", 5, "x^2", "2x"),
    ("$x^2 = 2x$", 6, "x^2", "2x"),
])
def test_an_equation_naming_no_derivative_says_how_to_write_it(text, column, f, g):
    status, out, err = run_cli("check", text)
    assert status == 2 and out == ""
    first, caret = err.splitlines()[0], err.splitlines()[2]
    assert first.startswith("adcli: error: the left side names no derivative"), err
    assert f"d/dx ({f}) = {g}" in first and f"check '{f}' '{g}'" in first, err
    assert first.endswith(f"(column {column})"), err
    assert caret.index("^") == column + 1, err     # (under the text's 2-space indent)


@pytest.mark.parametrize("text", ["d/dx (x^2) = 2x", "(x^2)' = 2x"])
def test_the_written_forms_it_advises_are_checked(text):
    status, out, _ = run_cli("check", text, "--samples", "5")
    assert status == 0 and "matches d/dx at 5/5 points" in out


def test_the_advised_two_argument_form_is_checked():
    status, out, _ = run_cli("check", "x^2", "2x", "--samples", "5")
    assert status == 0 and "matches d/dx at 5/5 points" in out


@pytest.mark.parametrize("text, fragment", [
    ("y = x^2", "give the right-hand side alone, 'x^2', without 'y ='"),
    ("f(x) = x^2", "give the right-hand side alone, 'x^2', without 'f(x) ='"),
    ("d/dx x^2 \\to 2x", "write '=' in its place, as in d/dx x^2 = 2x"),
])
def test_other_equations_keep_their_own_advice(text, fragment):
    status, _, err = run_cli("check", text)
    assert status == 2 and fragment in err, err


@pytest.mark.parametrize("text, advised", [("t^2 = 2t", "d/dt (t^2) = 2t"),
                                           ("θ^2 \\to 2θ", "d/dθ (θ^2) = 2θ")])
def test_the_advice_differentiates_in_fs_own_variable(text, advised):
    # d/dx of t^2 is refused (no x in it): the advice names t, and is then checked
    status, _, err = run_cli("check", text)
    assert status == 2 and f"write {advised.split(' ')[0]} applied to it, {advised}," in err
    status, out, _ = run_cli("check", advised, "--samples", "5")
    assert status == 0 and "matches" in out


def test_of_several_variables_the_advice_takes_x():
    # a*x^2's 2ax is d/dx (d/da would be x^2): x, as calculus names the variable
    status, _, err = run_cli("check", "a*x^2 = 2*a*x")
    assert status == 2 and "write d/dx applied to it, d/dx (a*x^2) = 2*a*x," in err, err
