"""adcli check's diagnoses as a physics student reads them (round 23): a chain factor left
out at order 2 is no mixed partial in a parameter, a sign error is no antiderivative, a
spaced divisor's reciprocal is the reading's chance, a sum's wrong term is named itself,
Coulomb's quotient with a product below, and two readings of one expectation quoted as
typed and as finally read.

Each premise (which factor, which term, what the expectation is) is checked against a
hand derivation with mpmath at the points drawn, never against adcli's output.
"""
from __future__ import annotations

import mpmath
import pytest

import adcli
from conftest import run_cli


def diagnosis(*argv) -> list[str]:
    code, out, _ = run_cli("check", *argv, "--format", "plain")
    assert code == 1
    return [line.removeprefix("diagnosis: ") for line in out.splitlines()
            if line.startswith("diagnosis: ")]


def everywhere(points: dict, claim) -> bool:
    """Whether ``claim`` holds, with mpmath, at every point drawn."""
    n = len(next(iter(points.values())))
    return all(claim({k: mpmath.mpf(float(v[i])) for k, v in points.items()})
               for i in range(n))


def near(a, b) -> bool:
    return abs(a - b) <= 1e-12 * max(abs(a), abs(b), 1)


# ----- 1. order 2: the chain rule's du/dt left out once is no ∂²f/∂t∂φ ----------------------

A_SIN = "A sin(ω t + φ)"
WRITTEN = "x''(t) = -A ω sin(ω t + φ)"


def test_a_held_parameter_inside_the_argument_is_no_mixed_partial():
    result = adcli.check(A_SIN, WRITTEN, order=2, at={"A": 2, "ω": 3, "φ": 0.3})
    # by hand: x'' = -A ω² sin(u), u = ωt + φ; ∂²x/∂t∂φ = -A ω sin(u), the expectation,
    # which is x''/ω: the ω of du/dt said once
    assert everywhere(result.points, lambda p: near(
        -2 * 3 * mpmath.sin(3 * p["t"] + 0.3),
        (-2 * 3 ** 2 * mpmath.sin(3 * p["t"] + 0.3)) / 3))
    assert result.diagnosis == [
        "×1/ω everywhere: the expectation is 1/ω times ∂²/∂t² at every point (ω = 3)"]


def test_a_parameter_drawn_at_random_inside_the_argument_is_no_mixed_partial():
    # d²/dt² sin(3t + c) = -9 sin(3t + c) by hand; written -3 sin(3t + c), ∂²f/∂t∂c
    result = adcli.check("sin(3t + c)", "d^2/dt^2 (sin(3t + c)) = -3 sin(3t + c)", order=2)
    assert everywhere(result.points, lambda p: near(
        -9 * mpmath.sin(3 * p["t"] + p["c"]), 3 * (-3 * mpmath.sin(3 * p["t"] + p["c"]))))
    assert result.diagnosis == [
        "×1/3 everywhere: the expectation is 1/3 times ∂²/∂t² at every point"]


def test_the_chain_factor_left_out_once_is_said_where_no_factor_says_it():
    result = adcli.check(A_SIN, WRITTEN, order=2)
    # by hand: the expectation is x''/ω, and ω is drawn at random: no constant factor
    ratios = {float(w) for w in result.points["ω"]}
    assert len(ratios) > 1
    assert result.diagnosis == [
        "this is ∂/∂t of the derivative of f with respect to u = (ω*t) + φ (sin's "
        "argument): the chain rule's factor ∂u/∂t is missing from one of the two "
        "differentiations"]


def test_with_partials_written_the_mixed_partial_stays():
    # ∂²/∂t² written: φ may be a variable to who wrote it (as swapped partials at order 1)
    lines = diagnosis(A_SIN, "∂²x/∂t² = -A ω sin(ω t + φ)", "--at", "A=2,ω=3,φ=0.3")
    assert "the expectation is ∂²/∂t∂φ at every point, not ∂²/∂t²: one of the two " \
           "differentiations is in φ, not in t" in lines


def test_a_mixed_partial_no_chain_explains_stays():
    # (x^2 y^3)_xx = 2y^3; 6xy^2 is (x^2 y^3)_xy, and 2y^3 is no du/dx times it
    assert diagnosis("x^2*y^3", "d^2/dx^2 = 6*x*y^2") == [
        "the expectation is ∂²/∂x∂y at every point, not ∂²/∂x²: one of the two "
        "differentiations is in y, not in x"]


# ----- 2. a sign error that is an antiderivative too: one line, both stories -----------------
# (no number tells them apart: cos's written sin is likelier a minus lost, sin's written -cos
# likelier integrated; two lines read as two slips)

SIGN = ("×-1 everywhere: a sign error (the expectation is -{0} at every point); or else it "
        "is an antiderivative of f, its own {0} being f (are the two given the other way "
        "round?)")


@pytest.mark.parametrize("f, g, name, label, e, df", [
    ("cos x", "sin x", "x", "d/dx", lambda p: mpmath.sin(p["x"]),
     lambda p: mpmath.diff(mpmath.cos, p["x"])),
    ("sin x", "-cos x", "x", "d/dx", lambda p: -mpmath.cos(p["x"]),
     lambda p: mpmath.diff(mpmath.sin, p["x"])),
    (r"r \sin\theta \cos\phi", r"r\sin\theta\sin\phi", "φ", "∂/∂φ",
     lambda p: p["r"] * mpmath.sin(p["θ"]) * mpmath.sin(p["φ"]),
     lambda p: p["r"] * mpmath.sin(p["θ"]) * mpmath.diff(mpmath.cos, p["φ"])),
])
def test_a_sign_error_that_is_an_antiderivative_is_one_line(f, g, name, label, e, df):
    result = adcli.check(f, expect={name: g})
    # the premise: the expectation is -f' at every point
    assert everywhere(result.points, lambda p: near(e(p), -df(p)))
    assert result.diagnosis == [SIGN.format(label)]
    assert diagnosis(f, "--expect", f"{name}={g}") == [SIGN.format(label)]


def test_the_two_given_the_other_way_round_is_still_said():
    # (x^2)' = 2x = f: x^2 is an antiderivative of 2x, and no factor explains it
    assert diagnosis("2x", "x^2") == [
        "the expectation's own d/dx is f: it is an antiderivative of f, not its derivative "
        "(are the two given the other way round?)"]


# ----- 3. a spaced divisor: the reading leads, the power rule's exponent divided ---------------

@pytest.mark.parametrize("f, g, n, meant, power, rule, factor", [
    # (x^2)' = 2x; 1/2 x read 1/(2x) = 1/f'; meant (1/2)x = x/2 = f'/4
    ("x^2", "1/2 x", 2, "(1/2)*x", "x^2", "d(u^2)/dx = 2·u·(du/dx), not (1/2)·u·(du/dx)",
     "1/4"),
    # (x^3)' = 3x^2; 1/3 x^2 read 1/(3x^2) = 1/f'; meant x^2/3 = f'/9
    ("x^3", "1/3 x^2", 3, "(1/3)*x^2", "x^3",
     "d(u^3)/dx = 3·u^2·(du/dx), not (1/3)·u^2·(du/dx)", "1/9"),
])
def test_a_spaced_divisor_is_no_reciprocal(f, g, n, meant, power, rule, factor):
    result = adcli.check(f, g)

    def df(p):
        return mpmath.diff(lambda x: x ** n, p["x"])

    # premises: as read, 1/(n x^(n-1)) = 1/f'; as meant, x^(n-1)/n = f'/n^2
    assert everywhere(result.points, lambda p: near(1 / (n * p["x"] ** (n - 1)), 1 / df(p)))
    assert everywhere(result.points, lambda p: near(p["x"] ** (n - 1) / n, df(p) / n ** 2))
    (line,) = result.diagnosis
    assert "1/(df/dx)" not in line
    assert line.startswith(f"the expectation was read as written: {g}: ")
    assert line.endswith(
        f"; read the other way, {meant}, it differs too: this divides by the exponent of "
        f"{power}: the power rule multiplies by it, {rule}, for u = x; ×{factor} "
        f"everywhere: the expectation is {factor} times d/dx at every point")


def test_the_exponent_divided_is_said_as_written():
    # (3/x^2)' = -6/x^3 by hand; -3/(2x^3) divides 3·x^(-2)'s -2 where it multiplies
    result = adcli.check("3/x^2", "-3/(2x^3)")
    assert everywhere(result.points, lambda p: near(-3 / (2 * p["x"] ** 3),
                                                    (-6 / p["x"] ** 3) / 4))
    assert result.diagnosis == [
        "this divides by the exponent of 3/(x^2), 3·u^(-2): the power rule multiplies by "
        "it, d(3·u^(-2))/dx = -6·u^(-3)·(du/dx), not (-3/2)·u^(-3)·(du/dx), for u = x",
        "×1/4 everywhere: the expectation is 1/4 times d/dx at every point"]


def test_an_unspaced_divisor_keeps_its_reciprocal():
    # 1/2x, no caution (as often meant 1/(2x)): 1/(2x) = 1/f' of x^2 is said
    assert diagnosis("x^2", "1/2x") == [
        "the expectation is 1/(df/dx) at every point: the reciprocal of the derivative, as "
        "if the inverse-function rule were turned upside down"]


# ----- 4. a sum's wrong term, named itself ----------------------------------------------------

L = (r"\frac12 (m_1+m_2) l_1^2 ω_1^2 + \frac12 m_2 l_2^2 ω_2^2 + m_2 l_1 l_2 ω_1 ω_2 "
     r"\cos(\theta_1 - \theta_2) + (m_1+m_2) g l_1 \cos\theta_1 + m_2 g l_2 \cos\theta_2")
L_WRONG = r"-m_2 l_1 l_2 ω_1 ω_2 \sin(\theta_1-\theta_2) - m_2 g l_2 \sin\theta_2"


def test_the_term_of_a_long_sum_with_the_slip_is_named_itself():
    result = adcli.check(L, expect={"θ_2": L_WRONG})

    def term(p):    # ∂/∂θ_2 of m_2 l_1 l_2 ω_1 ω_2 cos(θ_1 - θ_2), by hand
        return p["m_2"] * p["l_1"] * p["l_2"] * p["ω_1"] * p["ω_2"] * \
            mpmath.sin(p["θ_1"] - p["θ_2"])

    def right(p):
        return term(p) - p["m_2"] * p["g"] * p["l_2"] * mpmath.sin(p["θ_2"])

    def written(p):
        return -term(p) - p["m_2"] * p["g"] * p["l_2"] * mpmath.sin(p["θ_2"])

    assert everywhere(result.points, lambda p: near(written(p), right(p) - 2 * term(p)))
    assert result.diagnosis == [
        "the term ∂u/∂θ_2 has the wrong sign, for u = ((((m_2*l_1)*l_2)*ω_1)*ω_2)*"
        "cos(θ_1 - θ_2): ∂/∂θ_2 of a sum is the sum of its terms' derivatives"]


def test_a_term_whose_derivative_is_0_is_not_named():
    result = adcli.check(r"y^2 + a\cos(b - x) + c\cos x",
                         expect={"x": r"- a\sin(b-x) - c \sin x"})
    # by hand: ∂/∂x = a sin(b - x) - c sin(x); written with -a sin(b - x)
    assert everywhere(result.points, lambda p: near(
        -p["a"] * mpmath.sin(p["b"] - p["x"]) - p["c"] * mpmath.sin(p["x"]),
        (p["a"] * mpmath.sin(p["b"] - p["x"]) - p["c"] * mpmath.sin(p["x"]))
        - 2 * p["a"] * mpmath.sin(p["b"] - p["x"])))
    assert result.diagnosis == [
        "the term ∂u/∂x has the wrong sign, for u = a*cos(b - x): ∂/∂x of a sum is the "
        "sum of its terms' derivatives"]


# ----- 5. the quotient rule's v only, v a product ---------------------------------------------

@pytest.mark.parametrize("f, g, wrt, v, w, label, e, df", [
    # (q/(4π ε_0 r))' = -q/(4π ε_0 r^2); written -q/(4π ε_0 r), r times it
    (r"\frac{q}{4\pi\epsilon_0 r}", r"-\frac{q}{4\pi\epsilon_0 r}", "r", "((4*pi)*ε_0)*r",
     "r", "∂/∂r", lambda p: -p["q"] / (4 * mpmath.pi * p["ε_0"] * p["r"]),
     lambda p: mpmath.diff(lambda r: p["q"] / (4 * mpmath.pi * p["ε_0"] * r), p["r"])),
    # (1/(2x))' = -1/(2x^2); written -1/(2x), x times it
    (r"\frac{1}{2 x}", r"-\frac{1}{2 x}", "x", "2*x", "x", "d/dx",
     lambda p: -1 / (2 * p["x"]), lambda p: mpmath.diff(lambda x: 1 / (2 * x), p["x"])),
])
def test_the_v_only_slip_with_a_product_below(f, g, wrt, v, w, label, e, df):
    result = adcli.check(f, g, wrt=wrt)
    assert everywhere(result.points, lambda p: near(e(p), df(p) * p[w]))
    assert result.diagnosis == [
        f"the quotient rule divides by v^2, for v = {v}, so by {w} twice; this divides by "
        f"{w} once only (it is {label} times {w} at every point)"]


# ----- 6. two readings of one expectation: as typed, and as finally read ----------------------

def test_two_readings_are_quoted_as_typed_and_as_finally_read():
    result = adcli.check("√x", "1/2 x^-1/2")
    # (√x)' = (1/2)·x^(-1/2), the expectation read with both cautions' readings; as
    # typed, 1/(2x^(-1))/2 = x/4
    assert everywhere(result.points, lambda p: near(mpmath.diff(mpmath.sqrt, p["x"]),
                                                    mpmath.mpf(1) / 2 * p["x"] ** -0.5))
    said = ("1/2 x^-1/2 is read otherwise than it was likely meant (see the warnings); as "
            "(1/2)*(x^((-1)/2)), the expectation matches")
    assert result.diagnosis[0] == said
    assert diagnosis("d/dx (√x) = 1/2 x^-1/2")[0] == said    # (the right side alone)


def test_a_reciprocal_root_written_without_v_squared_is_one_story():
    # (1/√x)' = -v'/v^2 = -1/(2 x^(3/2)) (by hand); -1/(2√x) is -v' alone: the quotient
    # rule's v^2 left out, not also "√x differentiated as √x/2", a second story of it
    code, out, _ = run_cli("check", "1/sqrt(x)", "-1/(2 sqrt(x))", "--domain", "x=0.5:3",
                           "--format", "plain")
    assert code == 1
    assert [line for line in out.splitlines() if line.startswith("diagnosis")] == [
        "diagnosis: the quotient rule's division by v^2 is missing, for v = sqrt(x) (this "
        "is d/dx times v^2 at every point)"]


@pytest.mark.parametrize("f, g, term, u", [
    # f' = -3x^2 + cos x (by hand): the x^3 term's -3x^2 written 3x^2, the minus lost
    ("5 - x^3 + sin(x)", "3x^2 + cos x", "the term -du/dx has the wrong sign", "x^3"),
    # f' = -6x^2 + cos x: -du/dx = -6x^2 for u = 2x^3, written 12x^2, -2 times it
    ("5 - 2x^3 + sin(x)", "12x^2 + cos x", "the term -du/dx is -2 times what it should be",
     "2*(x^3)"),
])
def test_a_subtracted_term_is_named_with_its_minus(f, g, term, u):
    assert diagnosis(f, g) == [f"{term}, for u = {u}: d/dx of a sum is the sum of its "
                               "terms' derivatives"]


def test_a_zeroth_power_has_no_exponent_divided():
    # exp(sin x)^0 = 1, f' = 0; written 2: found by the fuzz suite (a division by the
    # exponent 0 was an internal error)
    code, out, err = run_cli("check", "exp(sin(x))⁰", "2", "--format", "plain")
    assert code == 1 and "internal error" not in err, err
    assert out.startswith("differs from d/dx at 30 of 30 points"), out
