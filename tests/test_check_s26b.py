"""check: a result has no truth value (.ok says whether it matches), f's function applied
without brackets to a power tried as the power of the function (sin x^2 as sin(x)^2), an
equation written the other way round, and --wrt naming several variables for one
expectation."""

import mpmath
import pytest

import adcli
from conftest import run_cli

NO_TRUTH = ("a CheckResult has no truth value: its verdict is 'matches', 'differs' or "
            "'cannot tell'; use .ok (True only where it matches) or .verdict")


def run(*args):
    return run_cli(*args)   # (in this process: a child each cost ~0.3 s of CI)


def diagnosis_lines(out: str) -> list[str]:
    return [line[len("diagnosis: "):] for line in out.splitlines()
            if line.startswith("diagnosis: ")]


# ----- 1. a CheckResult is neither true nor false -------------------------------------------

def test_a_wrong_derivative_does_not_pass_an_assert():
    """assert adcli.check("x^2", "3x") passed: a result object was always true."""
    result = adcli.check("x^2", "3x")     # d/dx x^2 = 2x, not 3x
    assert (result.verdict, result.ok) == ("differs", False)
    with pytest.raises(TypeError) as raised:
        assert result
    assert str(raised.value) == NO_TRUTH


@pytest.mark.parametrize("make, verdict", [
    (lambda: adcli.check("x^2", "2x"), "matches"),     # d/dx x^2 = 2x by the power rule
    (lambda: adcli.check("exp(x)", at={"x": 1e-20}), "cannot tell"),
])
def test_no_verdict_is_a_truth_value(make, verdict):
    result = make()
    assert result.verdict == verdict and result.ok == (verdict == "matches")
    for test in (bool, lambda r: not r, lambda r: r or None):
        with pytest.raises(TypeError) as raised:
            test(result)
        assert str(raised.value) == NO_TRUTH


# ----- 2. sin x^2 tried as sin(x)^2 ----------------------------------------------------------

def _derivative(g, x):
    return mpmath.diff(g, mpmath.mpf(x))


# f as typed, the expectation (of f's other reading), the words, and the two readings and
# the expectation for mpmath
POWERED = [
    ("sin x^2", "2 sin x cos x",
     "f: sin x^2 is read as sin(x^2); as sin(x)^2, the expectation matches",
     lambda x: mpmath.sin(x ** 2), lambda x: mpmath.sin(x) ** 2,
     lambda x: 2 * mpmath.sin(x) * mpmath.cos(x)),
    ("cos x^2", "-2 sin x cos x",
     "f: cos x^2 is read as cos(x^2); as cos(x)^2, the expectation matches",
     lambda x: mpmath.cos(x ** 2), lambda x: mpmath.cos(x) ** 2,
     lambda x: -2 * mpmath.sin(x) * mpmath.cos(x)),
    ("sin x^3", "3 sin^2 x cos x",
     "f: sin x^3 is read as sin(x^3); as sin(x)^3, the expectation matches",
     lambda x: mpmath.sin(x ** 3), lambda x: mpmath.sin(x) ** 3,
     lambda x: 3 * mpmath.sin(x) ** 2 * mpmath.cos(x)),
    ("ln x^2", "2 ln x / x",
     "f: ln x^2 is read as ln(x^2); as ln(x)^2, the expectation matches",
     lambda x: mpmath.log(x ** 2), lambda x: mpmath.log(x) ** 2,
     lambda x: 2 * mpmath.log(x) / x),
    ("\\sin x^2", "2 \\sin x \\cos x",
     "f: \\sin x^2 is read as sin(x^2); as sin(x)^2, the expectation matches",
     lambda x: mpmath.sin(x ** 2), lambda x: mpmath.sin(x) ** 2,
     lambda x: 2 * mpmath.sin(x) * mpmath.cos(x)),
    ("\\sin x^{2}", "2 \\sin x \\cos x",
     "f: \\sin x^{2} is read as sin(x^2); as sin(x)^2, the expectation matches",
     lambda x: mpmath.sin(x ** 2), lambda x: mpmath.sin(x) ** 2,
     lambda x: 2 * mpmath.sin(x) * mpmath.cos(x)),
    ("sin x²", "2 sin x cos x",
     "f: sin x² is read as sin(x^2); as sin(x)^2, the expectation matches",
     lambda x: mpmath.sin(x ** 2), lambda x: mpmath.sin(x) ** 2,
     lambda x: 2 * mpmath.sin(x) * mpmath.cos(x)),
    ("sin x^2 + cos x^2", "0",
     "f: sin x^2 and cos x^2 are read as sin(x^2) and cos(x^2); as sin(x)^2 and cos(x)^2, "
     "the expectation matches",
     lambda x: mpmath.sin(x ** 2) + mpmath.cos(x ** 2),
     lambda x: mpmath.sin(x) ** 2 + mpmath.cos(x) ** 2, lambda x: 0),
]


@pytest.mark.parametrize("f, expected, words, read, meant, expectation", POWERED)
def test_a_function_without_brackets_of_a_power_is_tried_as_its_power(
        f, expected, words, read, meant, expectation):
    """sin x^2 is sin(x^2), as the README says: one who meant sin(x)^2 was told "this is
    sin(du/dx) ..., the inner derivative put inside" (true of sin(2x), a coincidence)."""
    for x in (0.7, 1.3, 4.0):   # (ln's reading only where x > 0)
        assert _derivative(meant, x) == pytest.approx(float(expectation(x)), abs=1e-12)
        assert abs(_derivative(read, x) - expectation(x)) > 0.1
    result = adcli.check(f, expected)
    assert (result.verdict, result.diagnosis) == ("differs", [words])


def test_the_cli_says_sin_x_squared_as_sin_of_x_squared():
    code, out, err = run("check", "sin x^2", "2 sin x cos x", "--format", "plain")
    assert code == 1, err
    assert diagnosis_lines(out) == [
        "f: sin x^2 is read as sin(x^2); as sin(x)^2, the expectation matches"]


@pytest.mark.parametrize("f, expected, read, meant, expectation", [
    # brackets say what was meant
    ("sin(x^2)", "2 sin x cos x", lambda x: mpmath.sin(x ** 2),
     lambda x: mpmath.sin(x) ** 2, lambda x: 2 * mpmath.sin(x) * mpmath.cos(x)),
    # wrong as either reading (sin(x^2)' is 2x cos(x^2))
    ("sin x^2", "2x cos x", lambda x: mpmath.sin(x ** 2),
     lambda x: mpmath.sin(x) ** 2, lambda x: 2 * x * mpmath.cos(x)),
])
def test_no_other_reading_is_said_where_it_does_not_match(f, expected, read, meant,
                                                          expectation):
    for x in (1.3, 2.2):
        assert abs(_derivative(read, x) - expectation(x)) > 0.1
    matches_meant = all(_derivative(meant, x) == pytest.approx(float(expectation(x)))
                        for x in (1.3, 2.2))
    result = adcli.check(f, expected)
    assert result.verdict == "differs"
    said = [line for line in result.diagnosis if line.startswith("f: ")]
    assert said == []
    assert matches_meant == (f == "sin(x^2)")   # (the brackets are why none is said there)


def test_a_right_derivative_of_sin_x_squared_is_unchanged():
    # d/dx sin(x^2) = 2x cos(x^2), by the chain rule
    assert adcli.check("sin x^2", "2x cos(x^2)").verdict == "matches"


# ----- 3. an equation written the other way round --------------------------------------------

@pytest.mark.parametrize("f, expected, error", [
    ("x^3", "3x^2 = dy/dx",
     "the expectation's left side, 3x^2, is not read as a derivative, and its right side, "
     "dy/dx, names one: the equation is written the other way round; write dy/dx = 3x^2, "
     "or give 3x^2 alone"),
    ("x^2", "2x = f'(x)",
     "the expectation's left side, 2x, is not read as a derivative, and its right side, "
     "f'(x), names one: the equation is written the other way round; write f'(x) = 2x, "
     "or give 2x alone"),
    ("x^2 y", "2xy = ∂f/∂x",
     "the expectation's left side, 2xy, is not read as a derivative, and its right side, "
     "∂f/∂x, names one: the equation is written the other way round; write ∂f/∂x = 2xy, "
     "or give 2xy alone with --wrt x"),
])
def test_an_equation_written_backwards_is_said_so(f, expected, error):
    code, out, err = run("check", f, expected)
    assert (code, out, err) == (2, "", f"adcli: error: {error}\n")


@pytest.mark.parametrize("args", [
    ("x^3", "dy/dx = 3x^2"), ("x^3", "3x^2"),    # d/dx x^3 = 3x^2
    ("x^2", "f'(x) = 2x"), ("x^2", "2x"),        # d/dx x^2 = 2x
    ("x^2 y", "∂f/∂x = 2x y"), ("x^2 y", "2x y", "--wrt", "x"),    # ∂/∂x x^2 y = 2xy
])
def test_the_advice_for_a_backwards_equation_is_followed(args):
    code, out, err = run("check", *args, "--format", "plain")
    assert code == 0, out + err


def test_the_api_says_wrt_for_a_backwards_equation():
    with pytest.raises(adcli.AdcliError) as raised:
        adcli.check("x^2 y", "2x y = ∂f/∂x")
    assert str(raised.value) == (
        "the expectation's left side, 2x y, is not read as a derivative, and its right "
        "side, ∂f/∂x, names one: the equation is written the other way round; write "
        "∂f/∂x = 2x y, or give 2x y alone with wrt=\"x\"")


# ----- 4. --wrt naming several variables for one expectation ---------------------------------

def test_wrt_of_several_variables_for_one_expectation_is_said_so():
    code, out, err = run("check", "x^2 y", "2x y", "--wrt", "x,y")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: --wrt names x and y, but one expectation is one "
                   "derivative: give one variable to --wrt, or one --expect NAME=... per "
                   "variable\n")


def test_wrt_of_several_variables_in_the_api():
    with pytest.raises(adcli.AdcliError) as raised:
        adcli.check("x^2 y", "2x y", wrt=["x", "y"])
    assert str(raised.value) == (
        "wrt= names x and y, but one expectation is one derivative: give one variable to "
        "wrt=, or one expectation per variable: expect={NAME: ...}")


@pytest.mark.parametrize("args", [
    ("--wrt", "x"),                          # ∂/∂x x^2 y = 2xy
    ("--expect", "x=2x y", "--expect", "y=x^2"),   # ∂/∂y x^2 y = x^2
])
def test_the_advice_for_wrt_is_followed(args):
    expected = () if args[0] == "--expect" else ("2x y",)
    code, out, err = run("check", "x^2 y", *expected, *args, "--format", "plain")
    assert code == 0, out + err


# ----- from the regression round ----------------------------------------------------------

@pytest.mark.parametrize("f, g, advice", [
    # the order the left side named goes with the right side given alone
    ("x^3", "6x = f''(x)", "write f''(x) = 6x, or give 6x alone with --order 2"),
    ("x^2 y", "2y = ∂^2f/∂x^2", "write ∂^2f/∂x^2 = 2y, or give 2y alone with --order 2 and "
                               "--wrt x"),
])
def test_a_backwards_equation_of_a_higher_order_says_the_order(f, g, advice):
    code, out, err = run_cli("check", f, g)
    assert (code, out) == (2, "")
    assert err.rstrip("\n").endswith(advice)
    # the advice followed: 6x is x^3'' and 2y is ∂²(x²y)/∂x² (by hand), so they match
    follow = ["--order", "2"] + (["--wrt", "x"] if "y" in f else [])
    assert run_cli("check", f, g.split(" = ")[0], *follow)[0] == 0


@pytest.mark.parametrize("g, why", [
    ("12 = f'(2)", "f'(2) is the derivative at x = 2: write the derivative as a formula, "
                   "f'(x) = ..., and give the point with --at x=2"),
    ("3x^2 = dy/dt", "the expectation's left side, dy/dt, is a derivative in t, which does "
                     "not appear in 'x^3'"),
])
def test_a_backwards_equation_whose_swap_is_refused_too_says_why(g, why):
    # f'(2) names a derivative at a point, dy/dt one in t, which x^3 lacks: "write ... the
    # other way round" (and before, "give the right side alone, f'(2)") led into another
    # error: the swapped side's own refusal is said instead
    left, right = (side.strip() for side in g.split("="))
    code, out, err = run_cli("check", "x^3", g)
    assert (code, out) == (2, "")
    assert err.splitlines()[0] == (
        f"adcli: error: the expectation's left side, {left}, is not read as a derivative; "
        f"its right side, {right}, names one (written the other way round?), and as a left "
        f"side it is refused too: {why}")


@pytest.mark.parametrize("equation, swapped", [
    ("3x^2 = dy/dx", "'dy/dx = 3x^2'"), ("2x = f'(x)", "\"f'(x) = 2x\"")])
def test_one_equation_written_backwards_says_so(equation, swapped):
    # check "3x^2 = dy/dx" was told to give '3x^2' 'dy/dx' apart (another error), and
    # "2x = f'(x)" met the parser's "unexpected character '='"
    code, out, err = run_cli("check", equation)
    assert (code, out) == (2, "")
    right = equation.split(" = ")[1]
    assert err.splitlines()[0] == (
        f"adcli: error: the left side names no derivative, and the right side, {right}, names "
        f"one: written the other way round? give the function first, and the derivative on "
        f"the left, check F {swapped} (column {equation.index('=') + 1})")
