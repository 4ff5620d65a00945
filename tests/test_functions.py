"""Every function and operator of the expression language, checked as a specification.

The first part is driven by the registry in ``adcli.functions``: a function added there is
checked here (first derivative, second derivative, vectorisation) without editing this
file. References are independent of the engine: finite differences of values (on the
mild domain each function declares), 50-digit mpmath closed forms (over the whole float64
range, where finite differences cannot resolve the derivative), closed forms from
``math``, and derivatives worked out by hand in the comments.
"""
from __future__ import annotations

import math
import warnings

import mpmath as mp
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import adcli
from adcli.functions import CALLABLE, PRIMITIVES
from conftest import accuracy_script

# The infix/prefix operators, as the text that reaches each one through the parser.
OPERATOR_TEXT = {"add": "a + b", "sub": "a - b", "mul": "a * b", "div": "a / b",
                 "pow": "a ^ b", "neg": "-a"}

FUNCTION_NAMES = sorted(CALLABLE)
UNARY = [n for n in FUNCTION_NAMES if CALLABLE[n].arity == 1]
BINARY = [n for n in FUNCTION_NAMES if CALLABLE[n].arity == 2]
OPERATORS = sorted(n for n in OPERATOR_TEXT if n in PRIMITIVES)

EXAMPLES = settings(max_examples=30, deadline=None,
                    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])

# Finite differences: central differences with steps h and h/2 (h = 1e-4 max(1, |x|)),
# combined by Richardson extrapolation, (4 D(h/2) - D(h)) / 3, whose truncation error is
# ~h^4 f^(5) / 480: below 3e-12 relative on every declared domain. Rounding the values
# costs at most ~3 ulp(F) / h, where F is the largest |f| at the stencil points: that floor
# (with a margin) is added to the tolerance, so a derivative tiny next to its function
# (sigmoid' at 20) is judged only as finely as the differences can resolve it; the
# mpmath tests below judge those. RTOL = 1e-10 catches a real error in a rule, where the
# old tolerance (1e-5, absolute and relative) let through a wrong 1e-6 term or 8 lost
# digits.
H = 1e-4
RTOL = 1e-10
EPS = float(np.finfo(np.float64).eps)


def _text_of(name: str) -> str:
    """``sin(x)`` for unary functions, ``pow(a, b)`` for binary ones."""
    arity = CALLABLE[name].arity
    return f"{name}(x)" if arity == 1 else f"{name}(" + ", ".join("ab"[:arity]) + ")"


def _argument_names(arity: int) -> list[str]:
    return ["x"] if arity == 1 else list("ab"[:arity])


def _domains(cls) -> list[tuple[float, float]]:
    """One (lo, hi) per argument. A registry entry with too few intervals is reported by
    test_registry_entries_are_well_formed; here the last interval is reused so the
    derivative tests still run on it."""
    domain = list(cls.domain)
    return domain + [domain[-1]] * (cls.arity - len(domain))


def _points(cls):
    """Hypothesis strategy: a tuple of floats in the function's domain, away from kinks."""
    args = st.tuples(*(st.floats(lo, hi, allow_nan=False, allow_infinity=False)
                       for lo, hi in _domains(cls)))
    return args.filter(lambda xs: float(cls.kink(*xs)) > cls.smooth_margin)


def _step(x: float, h: float) -> float:
    return h * max(1.0, abs(x))


class Estimate:
    """A finite-difference derivative and the rounding floor below which it is blind."""

    def __init__(self, value: float, floor: float):
        self.value, self.floor = float(value), float(floor)

    def __repr__(self):
        return f"{self.value!r} (+- {self.floor:.1e})"


def _close(actual, expected: Estimate, rtol=RTOL) -> bool:
    error = abs(float(actual) - expected.value)
    return error <= 8 * expected.floor + rtol * abs(expected.value)


def _richardson(fun, names, xs, i) -> list[Estimate]:
    """d fun / d name_i for every output of fun (a list of floats), by the scheme above."""
    step = _step(xs[i], H)

    def at(offset):
        point = dict(zip(names, xs))
        point[names[i]] = xs[i] + offset
        return np.array(fun(point), dtype=np.float64)

    samples = [at(k * step) for k in (1.0, -1.0, 0.5, -0.5)]
    coarse = (samples[0] - samples[1]) / (2 * step)
    fine = (samples[2] - samples[3]) / step
    # An ulp of the largest |value|: eps times it, and never below the subnormal spacing.
    ulp = np.maximum(EPS * np.max(np.abs(samples), axis=0), 2.0**-1074)
    return [Estimate(v, 3 * u / step) for v, u in zip((4 * fine - coarse) / 3, ulp)]


def _central_gradient(f, names, xs) -> list[Estimate]:
    """d f / d name_i from values of Expression.value."""
    return [_richardson(lambda p: [float(f.value(**p))], names, xs, i)[0]
            for i in range(len(names))]


def _central_hessian(f, names, xs) -> list[list[Estimate]]:
    """H[i][j] = d/d name_i of (d f / d name_j), from values of Expression.grad."""
    return [_richardson(lambda p: [float(g) for g in f.grad(**p).values()], names, xs, i)
            for i in range(len(names))]


# ----- the registry itself -------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(PRIMITIVES))
def test_registry_entries_are_well_formed(name):
    cls = PRIMITIVES[name]
    assert cls.name == name
    assert cls.arity in (1, 2)
    # The domain is documented as one (lo, hi) interval per argument.
    assert len(cls.domain) == cls.arity, f"{name}: {cls.arity} arguments, domain {cls.domain}"
    assert all(lo < hi for lo, hi in cls.domain)
    assert cls.smooth_margin >= 0


@pytest.mark.parametrize("name", FUNCTION_NAMES)
def test_every_callable_name_parses_to_its_class(name):
    f = adcli.parse(_text_of(name))
    call = f.nodes[-1]
    assert call.kind == "call" and call.function is CALLABLE[name]
    assert f.variables == tuple(_argument_names(CALLABLE[name].arity))


def test_the_registry_has_the_readme_functions():
    # The README's list of functions; a missing one would be a silent regression.
    documented = ("exp log ln log10 log2 log1p expm1 sqrt cbrt sin cos tan sec csc cot asin "
                  "acos atan asec acsc acot sinh cosh tanh sech csch coth asinh acosh atanh "
                  "abs sigmoid softplus arcsin arccos arctan arsinh arcosh artanh arcsinh "
                  "arccosh arctanh arcsec arccsc arccot tg ctg cotg cotan cosec arctg "
                  "arcctg").split()
    assert set(documented) <= {n for n in UNARY}
    assert {"pow", "atan2", "hypot", "min", "max"} <= set(BINARY)


# ----- first and second derivatives of every function, against central differences -----

@pytest.mark.parametrize("name", FUNCTION_NAMES)
def test_first_derivative_matches_central_differences(name):
    cls = CALLABLE[name]
    f = adcli.parse(_text_of(name))
    names = _argument_names(cls.arity)

    @EXAMPLES
    @given(_points(cls))
    def check(xs):
        at = dict(zip(names, xs))
        grad = f.grad(**at)
        assert list(grad) == names
        expected = _central_gradient(f, names, xs)
        for var, want in zip(names, expected):
            assert _close(grad[var], want), f"d{name}/d{var} at {at}: {grad[var]} vs {want}"

    check()


# Two paths to the same second derivative: derivative(x, 2) differentiates the gradient's
# own graph (double backprop); the 1x1 Hessian is the hessian command's path (gradient with
# create_graph, then one more reverse pass per variable).
SECOND_DERIVATIVE_PATHS = {
    "derivative": lambda f, x: f.derivative("x", 2, x=x),
    "hessian": lambda f, x: f.hessian(x=x)[0, 0],
}


@pytest.mark.filterwarnings("ignore::adcli.errors.AdcliWarning")  # (kinks, edges: said)
@pytest.mark.parametrize("path", SECOND_DERIVATIVE_PATHS)
@pytest.mark.parametrize("name", UNARY)
def test_second_derivative_of_unary_function_matches_central_differences(name, path):
    # The reference is a central difference of the first derivative.
    cls = CALLABLE[name]
    f = adcli.parse(_text_of(name))
    second_derivative = SECOND_DERIVATIVE_PATHS[path]
    assert np.shape(f.hessian(x=1.0)) == (1, 1)

    @EXAMPLES
    @given(_points(cls))
    def check(xs):
        (x,) = xs
        expected = _central_hessian(f, ["x"], xs)[0][0]
        second = second_derivative(f, x)
        assert _close(second, expected), f"{name}'' ({path}) at {x}: {second} vs {expected}"

    check()


@pytest.mark.parametrize("name", BINARY)
def test_hessian_of_binary_function_matches_central_differences(name):
    cls = CALLABLE[name]
    f = adcli.parse(_text_of(name))
    names = _argument_names(2)

    @EXAMPLES
    @given(_points(cls))
    def check(xs):
        at = dict(zip(names, xs))
        expected = _central_hessian(f, names, xs)
        hessian = f.hessian(**at)
        assert hessian.shape == (2, 2)
        for i in range(2):
            for j in range(2):
                assert _close(hessian[i, j], expected[i][j]), \
                    f"{name} H[{i},{j}] at {at}: {hessian} vs {expected}"

    check()


# ----- operators, registry-driven through the parser ------------------------------------

@pytest.mark.parametrize("name", OPERATORS)
def test_operator_first_and_second_derivatives_match_central_differences(name):
    cls = PRIMITIVES[name]
    f = adcli.parse(OPERATOR_TEXT[name])
    names = _argument_names(cls.arity) if cls.arity == 2 else ["a"]

    @EXAMPLES
    @given(_points(cls))
    def check(xs):
        at = dict(zip(names, xs))
        grad = f.grad(**at)
        for var, want in zip(names, _central_gradient(f, names, xs)):
            assert _close(grad[var], want), f"{OPERATOR_TEXT[name]} d/d{var} at {at}"
        expected = _central_hessian(f, names, xs)
        hessian = f.hessian(**at)
        for i, j in np.ndindex(hessian.shape):
            assert _close(hessian[i, j], expected[i][j]), \
                f"{OPERATOR_TEXT[name]} H[{i},{j}] at {at}: {hessian} vs {expected}"

    check()


# Hand-derived value, gradient and Hessian of each operator, as functions of (a, b).
L2 = math.log(2.0)
OPERATOR_FORMULAS = {
    # a + b: partials 1, 1; second partials all 0.
    "a + b": (lambda a, b: a + b, lambda a, b: (1.0, 1.0),
              lambda a, b: ((0.0, 0.0), (0.0, 0.0))),
    # a - b: partials 1, -1.
    "a - b": (lambda a, b: a - b, lambda a, b: (1.0, -1.0),
              lambda a, b: ((0.0, 0.0), (0.0, 0.0))),
    # a * b: partials b, a; mixed partial 1.
    "a * b": (lambda a, b: a * b, lambda a, b: (b, a),
              lambda a, b: ((0.0, 1.0), (1.0, 0.0))),
    # a / b: partials 1/b, -a/b^2; d2/da2 = 0, d2/dadb = -1/b^2, d2/db2 = 2a/b^3.
    "a / b": (lambda a, b: a / b, lambda a, b: (1 / b, -a / b**2),
              lambda a, b: ((0.0, -1 / b**2), (-1 / b**2, 2 * a / b**3))),
    # a ^ b = exp(b log a): d/da = b a^(b-1), d/db = a^b log a;
    # d2/da2 = b(b-1) a^(b-2), d2/dadb = a^(b-1) + b a^(b-1) log a, d2/db2 = a^b (log a)^2.
    "a ^ b": (lambda a, b: a**b, lambda a, b: (b * a**(b - 1), a**b * math.log(a)),
              lambda a, b: ((b * (b - 1) * a**(b - 2), a**(b - 1) * (1 + b * math.log(a))),
                            (a**(b - 1) * (1 + b * math.log(a)), a**b * math.log(a)**2))),
}
OPERATOR_FORMULAS["a ** b"] = OPERATOR_FORMULAS["a ^ b"]
OPERATOR_FORMULAS["pow(a, b)"] = OPERATOR_FORMULAS["a ^ b"]
OPERATOR_POINTS = [(2.0, 3.0), (0.5, -1.5), (3.0, 0.25), (1.5, 2.0)]  # a > 0 for a^b


@pytest.mark.parametrize("text", sorted(OPERATOR_FORMULAS))
@pytest.mark.parametrize("a, b", OPERATOR_POINTS)
def test_binary_operator_against_hand_derived_formulas(text, a, b):
    value, grad, hessian = OPERATOR_FORMULAS[text]
    f = adcli.parse(text)
    assert math.isclose(float(f.value(a=a, b=b)), value(a, b), rel_tol=1e-14)
    g = f.grad(a=a, b=b)
    np.testing.assert_allclose([g["a"], g["b"]], grad(a, b), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(f.hessian(a=a, b=b), hessian(a, b), rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("text, x, value, derivative, second", [
    # -x: derivative -1, second 0.
    ("-x", 2.5, -2.5, -1.0, 0.0),
    # --x = x.
    ("--x", 2.5, 2.5, 1.0, 0.0),
    # -x^2 is -(x^2): derivative -2x = -6 at 3, second -2.
    ("-x^2", 3.0, -9.0, -6.0, -2.0),
    # (-x)^2 = x^2: derivative 2x = 6, second 2.
    ("(-x)^2", 3.0, 9.0, 6.0, 2.0),
    # +x is x.
    ("+x", -1.5, -1.5, 1.0, 0.0),
    # 2^-x = exp(-x log 2): derivative -log2 * 2^-x = -log2/2 at x=1; second log2^2/2.
    ("2^-x", 1.0, 0.5, -L2 / 2, L2**2 / 2),
    # 1/2x is 1/(2x): derivative -1/(2x^2) = -1/8 at x=2; second 1/x^3 = 1/8.
    ("1/2x", 2.0, 0.25, -0.125, 0.125),
])
def test_unary_operators_and_precedence_against_hand_derived_values(
        text, x, value, derivative, second):
    f = adcli.parse(text)
    assert math.isclose(float(f.value(x=x)), value, rel_tol=1e-14)
    assert math.isclose(float(f.grad(x=x)["x"]), derivative, rel_tol=1e-14, abs_tol=1e-15)
    assert math.isclose(float(f.derivative("x", 2, x=x)), second, rel_tol=1e-13, abs_tol=1e-15)
    assert math.isclose(float(f.hessian(x=x)[0, 0]), second, rel_tol=1e-13, abs_tol=1e-15)


# ----- the whole float64 range, against 50-digit mpmath closed forms --------------------
# Finite differences cannot resolve a derivative that is tiny next to its function
# (sigmoid' at 40 is 4e-18 beside sigmoid = 1) or an argument near 1e300, so every
# function and operator is also sampled over its whole domain, both signs, log-spaced
# magnitudes from 1e-307 to 1.8e308 and points next to the edges 0 and +-1, against the
# closed forms in scripts/accuracy.py (each checked against mpmath's own differentiation
# in test_accuracy.py). The tolerance is relative, 1e-13 (about 450 ulps): it catches lost
# digits and spurious 0s and infs; the ulp budget itself is test_accuracy.py's.
TAIL_RTOL = 1e-13
TAIL_EXAMPLES = settings(EXAMPLES, max_examples=15)  # and the fixed points below, always
ACC = accuracy_script()
REACHABLE = sorted({cls.name for cls in CALLABLE.values()} | set(OPERATORS))

_RANGE = st.floats(-307.0, 308.25).map(lambda e: 10.0 ** e)    # tiny to huge
_MIDDLE = st.one_of(st.floats(-3.0, 3.0).map(lambda e: 10.0 ** e),
                    st.floats(0.0, 800.0, allow_subnormal=False))
_GAP = st.floats(-17.0, 0.0).map(lambda e: 10.0 ** e)           # distance to an edge
_SIGN = st.sampled_from([1.0, -1.0])
_TAIL = st.one_of(st.builds(lambda s, t: s * t, _SIGN, st.one_of(_RANGE, _MIDDLE)),
                  st.builds(lambda s, g, t: s * (1.0 + g * t), _SIGN, _SIGN, _GAP))  # +-1 +- t
_NEAR = st.builds(lambda t, k: (t, t * (1.0 + k * EPS)), _TAIL, st.integers(-4, 4))
TAILS = {1: _TAIL.map(lambda x: (x,)), 2: st.one_of(st.tuples(_TAIL, _TAIL), _NEAR)}
# Always tried, whatever hypothesis draws: the points where the old rules broke.
_FIXED = [1e-300, 1e-8, 1 - 2.0**-30, 1 + 2.0**-30, 20.0, 40.0, 700.0, 1e100, 1e200, 1e300]
FIXED_TAILS = {1: [(s * x,) for x in _FIXED for s in (1.0, -1.0)],
               2: [(1e-300, 1e-300), (1e200, -1e200), (1e-150, 3.0), (3.0, 1e-150),
                   (1e100, 2.5), (2.5, 1e100), (1e-300, 0.3), (0.7, -1e-10)]}


def _text(name: str) -> str:
    return OPERATOR_TEXT[name] if name in OPERATOR_TEXT else _text_of(name)


def _tail_results(f, names, at):
    """{partial: float} for the first and second partials, through the API (whose
    warnings of numbers float64 lost on the way are for users: judged here against
    mpmath, and only where the truth is a normal float)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", adcli.AdcliWarning)
        grad, hessian = f.grad(**at), f.hessian(**at)
    out = {(i,): float(grad[n]) for i, n in enumerate(names)}
    out.update({(i, j): float(hessian[i, j]) for i, j in np.ndindex(hessian.shape)})
    return out


@pytest.mark.parametrize("name", REACHABLE)
def test_derivatives_over_the_whole_range_match_mpmath(name):
    cls = PRIMITIVES[name]
    f = adcli.parse(_text(name))
    names = list(f.variables)

    @TAIL_EXAMPLES
    @given(TAILS[cls.arity])
    def check(xs):
        value = ACC.reference(name, (), xs)
        assume(value is not None and abs(value) <= ACC.HUGE)  # in the domain, no overflow
        for partial, got in _tail_results(f, names, dict(zip(names, xs))).items():
            true = ACC.reference(name, partial, xs)
            if not ACC.scored(true):
                continue  # subnormal or overflowing: no digits to compare
            bound = TAIL_RTOL * abs(true)
            if (name, partial) in ACC.COND_LIMITED:  # where any float64 evaluation is limited
                bound *= max(1.0, float(ACC.condition_number(name, partial, xs)))
            assert abs(got - true) <= bound, \
                f"{name} d{partial} at {xs}: {got!r}, true {mp.nstr(true, 17)}"

    for xs in FIXED_TAILS[cls.arity]:
        check = example(xs)(check)
    check()


# ----- values against closed forms from math ---------------------------------------------

CLOSED_FORMS = {
    "exp": math.exp, "log": math.log, "ln": math.log, "log10": math.log10,
    "log2": math.log2, "log1p": math.log1p, "expm1": math.expm1, "sqrt": math.sqrt,
    "cbrt": lambda x: math.copysign(abs(x) ** (1 / 3), x),
    "sin": math.sin, "cos": math.cos, "tan": math.tan,
    "sec": lambda x: 1 / math.cos(x), "csc": lambda x: 1 / math.sin(x),
    "cot": lambda x: math.cos(x) / math.sin(x),
    "asin": math.asin, "acos": math.acos, "atan": math.atan,
    "sinh": math.sinh, "cosh": math.cosh, "tanh": math.tanh,
    "asinh": math.asinh, "acosh": math.acosh, "atanh": math.atanh, "abs": abs,
    "sech": lambda x: 1 / math.cosh(x), "csch": lambda x: 1 / math.sinh(x),
    "coth": lambda x: math.cosh(x) / math.sinh(x), "asec": lambda x: math.acos(1 / x),
    "acsc": lambda x: math.asin(1 / x), "acot": lambda x: math.atan(1 / x),
    "sigmoid": lambda x: 1 / (1 + math.exp(-x)),
    "softplus": lambda x: math.log1p(math.exp(x)),
    "pow": lambda a, b: a**b, "atan2": math.atan2, "hypot": math.hypot,
    "min": min, "max": max,
}


@pytest.mark.parametrize("name", sorted(CLOSED_FORMS))
def test_value_matches_closed_form(name):
    cls = CALLABLE[name]
    f = adcli.parse(_text_of(name))
    names = _argument_names(cls.arity)

    @settings(max_examples=20, deadline=None)
    @given(_points(cls))
    def check(xs):
        got = float(f.value(**dict(zip(names, xs))))
        want = CLOSED_FORMS[name](*xs)
        # The closed forms round differently (1/cos vs sec, a**(1/3) vs cbrt): a few ulp.
        # No absolute slack beyond a few subnormal steps (2^-1074 apart, where a relative
        # tolerance means nothing): sin(1e-200) = 1e-200 is to be right, not just below 1e-15.
        assert math.isclose(got, want, rel_tol=1e-12, abs_tol=4 * 2.0**-1074), f"{name}{xs}"

    check()


@pytest.mark.parametrize("name", sorted(n for n, c in CALLABLE.items() if c.aliases))
def test_aliases_are_the_same_function(name):
    cls = CALLABLE[name]
    assert cls.arity == 1
    for alias in cls.aliases:
        f, g = adcli.parse(f"{name}(x)"), adcli.parse(f"{alias}(x)")
        x = 0.25 * cls.domain[0][0] + 0.75 * cls.domain[0][1]  # asec's middle, 0, is nan
        assert float(f.value(x=x)) == float(g.value(x=x))
        assert float(f.grad(x=x)["x"]) == float(g.grad(x=x)["x"])


# Derivatives at points where the closed form is exact or short; each derived by hand.
S3 = math.sqrt(3.0)
HAND_DERIVATIVES = [
    ("exp(x)", 0.0, 1.0),                       # exp' = exp, exp(0) = 1
    ("log(x)", 2.0, 0.5),                       # 1/x
    ("ln(x)", 4.0, 0.25),                       # alias of log
    ("log10(x)", 10.0, 1 / (10 * math.log(10))),  # 1/(x ln 10)
    ("log2(x)", 8.0, 1 / (8 * L2)),             # 1/(x ln 2)
    ("log1p(x)", 1.0, 0.5),                     # 1/(1+x)
    ("expm1(x)", 0.0, 1.0),                     # exp(x)
    ("sqrt(x)", 4.0, 0.25),                     # 1/(2 sqrt x) = 1/4
    ("cbrt(x)", 8.0, 1 / 12),                   # x^(-2/3)/3 = 1/(3*4)
    ("cbrt(x)", -8.0, 1 / 12),                  # even power of the cube root: same
    ("sin(x)", 0.0, 1.0),                       # cos 0
    ("cos(x)", math.pi / 2, -1.0),              # -sin(pi/2)
    ("tan(x)", math.pi / 4, 2.0),               # sec^2 = 1 + tan^2 = 2
    ("sec(x)", math.pi / 3, 2 * S3),            # sec tan = 2 * sqrt3
    ("csc(x)", math.pi / 6, -2 * S3),           # -csc cot = -2 * sqrt3
    ("cot(x)", math.pi / 4, -2.0),              # -csc^2 = -(sqrt2)^2
    ("asin(x)", 0.5, 2 / S3),                   # 1/sqrt(1 - 1/4)
    ("acos(x)", 0.5, -2 / S3),                  # -1/sqrt(1 - 1/4)
    ("atan(x)", 1.0, 0.5),                      # 1/(1 + 1)
    ("sinh(x)", 0.0, 1.0),                      # cosh 0
    ("cosh(x)", 0.0, 0.0),                      # sinh 0
    ("tanh(x)", 0.0, 1.0),                      # 1 - tanh^2
    ("asinh(x)", S3, 0.5),                      # 1/sqrt(3 + 1)
    ("acosh(x)", 2.0, 1 / S3),                  # 1/sqrt(4 - 1)
    ("atanh(x)", 0.5, 4 / 3),                   # 1/(1 - 1/4)
    ("abs(x)", -2.0, -1.0),                     # sign
    ("abs(x)", 3.0, 1.0),
    ("sign(x)", -2.0, 0.0),                     # flat on each side of its jump at 0
    ("sgn(x)", 0.5, 0.0),                       # alias of sign
    ("sigmoid(x)", 0.0, 0.25),                  # s(1-s) = 1/2 * 1/2
    ("softplus(x)", 0.0, 0.5),                  # sigmoid(0)
    # At x = ln 2: cosh = (2 + 1/2)/2 = 5/4, sinh = (2 - 1/2)/2 = 3/4, tanh = 3/5.
    ("sech(x)", L2, -12 / 25),                  # -sech tanh = -(4/5)(3/5)
    ("csch(x)", L2, -20 / 9),                   # -csch coth = -(4/3)(5/3)
    ("coth(x)", L2, -16 / 9),                   # -csch^2 = -(4/3)^2
    ("asec(x)", 2.0, 1 / (2 * S3)),             # 1/(|x| sqrt(x^2 - 1))
    ("asec(x)", -2.0, 1 / (2 * S3)),            # increasing on both branches
    ("acsc(x)", 2.0, -1 / (2 * S3)),            # -1/(|x| sqrt(x^2 - 1))
    ("acsc(x)", -2.0, -1 / (2 * S3)),
    ("acot(x)", 1.0, -0.5),                     # -1/(1 + x^2)
    ("acot(x)", -0.5, -0.8),                    # -1/(1 + 1/4)
]


@pytest.mark.parametrize("text, x, expected", HAND_DERIVATIVES)
def test_derivative_at_hand_derived_points(text, x, expected):
    assert math.isclose(float(adcli.parse(text).grad(x=x)["x"]), expected,
                        rel_tol=1e-14, abs_tol=0.0)


@pytest.mark.parametrize("text, at, expected", [
    # pow(a, b) at (2, 3): (b a^(b-1), a^b ln a) = (12, 8 ln 2)
    ("pow(a, b)", {"a": 2.0, "b": 3.0}, {"a": 12.0, "b": 8 * L2}),
    # atan2(y, x) at (1, 1): (x, -y)/(x^2 + y^2) = (1/2, -1/2)
    ("atan2(a, b)", {"a": 1.0, "b": 1.0}, {"a": 0.5, "b": -0.5}),
    # hypot(3, 4) = 5: (a, b)/5
    ("hypot(a, b)", {"a": 3.0, "b": 4.0}, {"a": 0.6, "b": 0.8}),
    # min picks a when a < b
    ("min(a, b)", {"a": 1.0, "b": 2.0}, {"a": 1.0, "b": 0.0}),
    ("max(a, b)", {"a": 1.0, "b": 2.0}, {"a": 0.0, "b": 1.0}),
])
def test_binary_derivative_at_hand_derived_points(text, at, expected):
    g = adcli.parse(text).grad(**at)
    for name, want in expected.items():
        assert math.isclose(float(g[name]), want, rel_tol=1e-14, abs_tol=1e-15), name


# ----- vectorisation: arrays give what point-by-point evaluation gives --------------------

def _grid(cls):
    """Evenly spaced points over each argument's domain, kinks included; binary
    functions get a column times a row, so broadcasting is exercised too."""
    domains = _domains(cls)
    if cls.arity == 1:
        return (np.linspace(*domains[0], 9),)
    return (np.linspace(*domains[0], 5)[:, None], np.linspace(*domains[1], 4)[None, :])


@pytest.mark.filterwarnings("ignore::adcli.errors.AdcliWarning")  # (kinks, edges: said)
@pytest.mark.parametrize("name", FUNCTION_NAMES + [f"op:{n}" for n in OPERATORS])
def test_array_inputs_give_the_same_as_point_by_point(name):
    if name.startswith("op:"):
        cls = PRIMITIVES[name[3:]]
        f = adcli.parse(OPERATOR_TEXT[name[3:]])
        names = ["a"] if cls.arity == 1 else ["a", "b"]
    else:
        cls = CALLABLE[name]
        f = adcli.parse(_text_of(name))
        names = _argument_names(cls.arity)
    arrays = _grid(cls)
    at = dict(zip(names, arrays))
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    values, grads, hessians = f.value(**at), f.grad(**at), f.hessian(**at)
    assert np.shape(values) == shape or np.ndim(values) == 0
    assert hessians.shape == shape + (len(names), len(names))
    for var in names:
        assert grads[var].shape == shape
    for index in np.ndindex(shape):
        point = {n: float(np.broadcast_to(a, shape)[index]) for n, a in zip(names, arrays)}
        one_grad = f.grad(**point)
        np.testing.assert_allclose(np.broadcast_to(values, shape)[index], f.value(**point),
                                   rtol=1e-13, atol=1e-300)
        for var in names:
            np.testing.assert_allclose(grads[var][index], one_grad[var], rtol=1e-13,
                                       atol=1e-300, err_msg=f"{name} d/d{var} at {point}")
        np.testing.assert_allclose(hessians[index], f.hessian(**point), rtol=1e-13,
                                   atol=1e-300, err_msg=f"{name} Hessian at {point}")


def test_unary_derivative_of_order_two_is_vectorised():
    # d2/dx2 sin = -sin, elementwise over an array.
    x = np.linspace(-3, 3, 11)
    np.testing.assert_allclose(adcli.parse("sin(x)").derivative("x", 2, x=x), -np.sin(x),
                               rtol=1e-14, atol=1e-15)


def test_a_scalar_and_an_array_broadcast_together():
    # x*y with x scalar 2 and y = [1, 2, 3]: d/dx = y, d/dy = 2 everywhere.
    g = adcli.parse("x*y").grad(x=2.0, y=np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(g["x"], [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(g["y"], [2.0, 2.0, 2.0])


# ----- conventions at kinks and edges (README table, PyTorch conventions) ---------------

INF, NAN = math.inf, math.nan
KINKS = [
    # abs' is sign(x), and sign(0) = 0.
    ("abs(x)", {"x": 0.0}, {"x": 0.0}),
    # At a tie the gradient is split: 1/2 to each input.
    ("min(a, b)", {"a": 1.0, "b": 1.0}, {"a": 0.5, "b": 0.5}),
    ("max(a, b)", {"a": -2.0, "b": -2.0}, {"a": 0.5, "b": 0.5}),
    # min(x, x) = x: both halves reach x, 1/2 + 1/2 = 1.
    ("min(x, x)", {"x": 3.0}, {"x": 1.0}),
    ("max(x, x)", {"x": 3.0}, {"x": 1.0}),
    # sqrt' = 1/(2 sqrt x) -> 1/0 = inf; cbrt' = 1/(3 cbrt(x)^2) -> inf.
    ("sqrt(x)", {"x": 0.0}, {"x": INF}),
    ("cbrt(x)", {"x": 0.0}, {"x": INF}),
    # pow(a, b) at a=0, b=2: d/da = b a^(b-1) = 2*0 = 0; d/db = a^b log a is 0*(-inf),
    # taken as 0 because a^b == 0 and b > 0 (0^b is flat in b for b > 0).
    ("pow(a, b)", {"a": 0.0, "b": 2.0}, {"a": 0.0, "b": 0.0}),
    ("a^b", {"a": 0.0, "b": 0.5}, {"a": INF, "b": 0.0}),  # d/da = 0.5 * 0^-0.5 = inf
    # d/db a^b = a^b log a away from the edge: 2^3 * log 2.
    ("a^b", {"a": 2.0, "b": 3.0}, {"a": 12.0, "b": 8 * L2}),
    # x^0 is the constant 1: derivative 0 even at x = 0 (not 0 * 0^-1 = nan).
    ("x^0", {"x": 0.0}, {"x": 0.0}),
    ("pow(x, 0)", {"x": 0.0}, {"x": 0.0}),
    ("pow(a, b)", {"a": 0.0, "b": 0.0}, {"a": 0.0, "b": -INF}),  # d/db = 1 * log 0
    # A constant exponent gets no gradient, so its log(base) = log(-2) = nan never
    # appears: d/dx x^2 = 2x = -4, d/dx x^3 = 3x^2 = 12.
    ("x^2", {"x": -2.0}, {"x": -4.0}),
    ("x^3", {"x": -2.0}, {"x": 12.0}),
    ("x^-1", {"x": -2.0}, {"x": -0.25}),     # -1/x^2
    # atan2 and hypot have no derivative at the origin: nan.
    ("atan2(a, b)", {"a": 0.0, "b": 0.0}, {"a": NAN, "b": NAN}),
    ("hypot(a, b)", {"a": 0.0, "b": 0.0}, {"a": NAN, "b": NAN}),
    # exp overflows to inf and so does its derivative; underflows to 0.
    ("exp(x)", {"x": 1000.0}, {"x": INF}),
    ("exp(x)", {"x": -1000.0}, {"x": 0.0}),
]


@pytest.mark.filterwarnings("ignore::adcli.errors.AdcliWarning")  # (kinks, edges: said)
@pytest.mark.parametrize("text, at, expected", KINKS)
def test_convention_at_kinks_and_edges(text, at, expected):
    g = adcli.parse(text).grad(**at)
    assert list(g) == list(expected)
    for name, want in expected.items():
        got = float(g[name])
        if math.isnan(want):
            assert math.isnan(got), f"d/d{name} {text}: {got}"
        else:
            assert got == want, f"d/d{name} {text} at {at}: {got}, expected {want}"


@pytest.mark.filterwarnings("ignore::adcli.errors.AdcliWarning")  # (kinks, edges: said)
@pytest.mark.parametrize("text, x, second", [
    # x^2 at -2: second derivative 2, with no nan from log(-2).
    ("x^2", -2.0, 2.0),
    # x^0 = 1: every derivative is 0, even at 0.
    ("x^0", 0.0, 0.0),
    # abs'' = 0 away from 0 (and 0 at 0: the derivative sign(x) is a constant there).
    ("abs(x)", -1.0, 0.0),
    ("abs(x)", 0.0, 0.0),
])
def test_second_derivative_conventions(text, x, second):
    f = adcli.parse(text)
    assert float(f.derivative("x", 2, x=x)) == second
    assert float(f.hessian(x=x)[0, 0]) == second


@pytest.mark.filterwarnings("ignore::adcli.errors.AdcliWarning")  # (kinks, edges: said)
@pytest.mark.parametrize("a, b", [(0.0, 1.0), (0.0, 0.0), (1e-300, 0.0)])
def test_pow_second_derivative_in_a_is_zero_where_a_factor_b_minus_i_is(a, b):
    # d2/da2 a^b = b (b-1) a^(b-2): 0 where b is 0 or 1, even where a^(b-2) is infinite
    # (a = 0) or overflows (1e-300^-2), as a^1 and a^0 are linear and constant in a.
    assert float(adcli.parse("a^b").hessian(a=a, b=b)[0, 0]) == 0.0


@pytest.mark.filterwarnings("ignore::adcli.errors.AdcliWarning")  # (kinks, edges: said)
@pytest.mark.parametrize("a, b, hessian", [
    # f = a^b at a = 0 (limits as a -> 0+): f_aa = b(b-1) a^(b-2), f_ab = a^(b-1)(1 + b ln a)
    # and f_bb = a^b ln^2 a. For b > 2 all three are 0.
    (0.0, 3.0, [[0.0, 0.0], [0.0, 0.0]]),
    (0.0, 2.5, [[0.0, 0.0], [0.0, 0.0]]),
    # 1 < b < 2: f_aa = 0.75 a^-0.5 -> inf, while a^0.5 ln a -> 0 in f_ab.
    (0.0, 1.5, [[INF, 0.0], [0.0, 0.0]]),
    # b(b-1) = 6.6e321 overflows float64, but 0^(b-2) is 0 and so is the product.
    (-0.0, 8.132249504205196e+160, [[0.0, 0.0], [0.0, 0.0]]),
])
def test_pow_hessian_at_a_zero_base_takes_the_limits(a, b, hessian):
    # Once nan: f_ab as 0^(b-1) * (1 + b log 0) = 0 * -inf, on one side of the diagonal only.
    got = adcli.parse("a^b").hessian(a=a, b=b)
    assert got.tolist() == hessian


_EXPONENTS = [0.0, -0.0, 1.0, 2.0, 3.0, 2.5, 0.5, 0.1, -1.0, -0.5, -3.0, 1e16, 1e16 + 2,
              1.0000000000000002, 100.5, 1e-300, math.inf, -math.inf, math.nan]


def test_what_a_constant_exponent_keeps_does_not_depend_on_what_came_before():
    # A 0-d exponent (x^3) has what it needs of b worked out once per (b, k) and kept (a
    # polynomial of 10^4 terms at one point asks per term). Each result, made with nothing
    # kept, must come out the same when everything else was asked first, in reverse.
    from adcli import functions
    from adcli.kernel import identical
    a = np.array([0.0, -0.0, 1e-300, 5e-324, 0.3, 1.0, 2.0, 7.5, 1e150, 1e300, -0.3, -2.0,
                  -1e300, math.inf, -math.inf, math.nan])
    helpers = [("pow_log", 0)] + [(name, k) for name in ("pow_diff", "pow_shift")
                                  for k in (1, 2, 3)]
    cases = [(name, k, b) for name, k in helpers for b in _EXPONENTS]

    def result(name, k, b):
        function = PRIMITIVES[name]() if name == "pow_log" else PRIMITIVES[name](k)
        return function.forward(a, np.array(b))
    with np.errstate(all="ignore"):
        alone = []
        for case in cases:
            functions._exponents.clear()
            alone.append(result(*case))
        for case, expected in reversed(list(zip(cases, alone))):
            assert identical(result(*case), expected), case


@pytest.mark.parametrize("text", ["a^b", "pow(a, b)", "0 + a^b"])
def test_pow_hessian_at_exponent_zero_keeps_the_mixed_partial(text):
    # f = a^b = exp(b log a) at a = 2, b = 0 (a smooth point: a > 0).
    # f_a = b a^(b-1), f_b = a^b log a.
    # f_aa = b(b-1) a^(b-2) = 0;  f_ab = a^(b-1) (1 + b log a) = 1/2;  f_bb = a^b (log a)^2.
    # The x^0 convention pins f_a = 0 at b = 0 (true here anyway, 0 * 2^-1); it must not
    # also zero f_a's derivative with respect to b, which is 1/a = 1/2.
    # ("0 + a^b" keeps a^b off the top of the graph.)
    h = adcli.parse(text).hessian(a=2.0, b=0.0)
    np.testing.assert_allclose(h, [[0.0, 0.5], [0.5, L2**2]], rtol=1e-14, atol=1e-15)


@pytest.mark.filterwarnings("ignore::adcli.errors.AdcliWarning")  # (kinks, edges: said)
def test_exp_overflow_value_is_inf():
    f = adcli.parse("exp(x)")
    assert float(f.value(x=1000.0)) == INF
    assert float(f.value(x=-1000.0)) == 0.0


# sigmoid(x) = 1/(1 + e^-x); sigmoid' = s(1-s); sigmoid'' = s(1-s)(1-2s).
# softplus(x) = log(1 + e^x) = x + log(1 + e^-x); softplus' = sigmoid; softplus'' = s(1-s).
# For |x| >= 800, e^-|x| underflows to exactly 0 in float64 (e^-745 is the last nonzero),
# so s = 1 or 0 exactly, s(1-s) = 0, softplus(x) = max(x, 0) and softplus' = 1 or 0.
# For x = -700, e^-700 ~ 9.86e-305 is representable: s = e^x/(1+e^x) ~ e^x to within
# e^x relative, and s(1-s) ~ e^x; softplus = log1p(e^x) ~ e^x.
E700 = math.exp(-700.0)
S40 = math.exp(-40.0) / (1 + math.exp(-40.0)) ** 2
SATURATED = [
    # (function, x, value, first derivative, second derivative)
    ("sigmoid", 1e308, 1.0, 0.0, 0.0),
    ("sigmoid", -1e308, 0.0, 0.0, 0.0),
    ("sigmoid", 1e5, 1.0, 0.0, 0.0),
    ("sigmoid", -1e5, 0.0, 0.0, 0.0),
    ("sigmoid", 800.0, 1.0, 0.0, 0.0),
    ("sigmoid", -800.0, 0.0, 0.0, 0.0),
    ("sigmoid", -700.0, E700, E700, E700),
    # At +700, 1 - s = e^-700/(1 + e^-700) rounds away: s = 1.0, but s' = s(1-s) ~ e^-700
    # and s'' = s'(1 - 2s) ~ -e^-700 (the old y(1-y) gave 0 for both).
    ("sigmoid", 700.0, 1.0, E700, -E700),
    # At +-40: s' = e^-40/(1 + e^-40)^2 = 4.25e-18 and s'' = -s' tanh(x/2).
    ("sigmoid", 40.0, 1.0, S40, -S40 * math.tanh(20.0)),
    ("sigmoid", -40.0, math.exp(-40.0) / (1 + math.exp(-40.0)), S40, S40 * math.tanh(20.0)),
    ("softplus", 1e308, 1e308, 1.0, 0.0),
    ("softplus", -1e308, 0.0, 0.0, 0.0),
    ("softplus", 1e5, 1e5, 1.0, 0.0),
    ("softplus", -1e5, 0.0, 0.0, 0.0),
    ("softplus", 800.0, 800.0, 1.0, 0.0),
    ("softplus", -800.0, 0.0, 0.0, 0.0),
    ("softplus", -700.0, E700, E700, E700),
    # softplus(700) = 700 + log1p(e^-700) = 700.0; softplus' = sigmoid(700) = 1.0;
    # softplus'' = s(1-s) ~ e^-700.
    ("softplus", 700.0, 700.0, 1.0, E700),
    ("softplus", 40.0, 40.0, 1.0, S40),
]


@pytest.mark.parametrize("name, x, value, first, second", SATURATED)
def test_sigmoid_and_softplus_do_not_overflow(name, x, value, first, second):
    f = adcli.parse(f"{name}(x)")
    got = [float(f.value(x=x)), float(f.grad(x=x)["x"]), float(f.derivative("x", 2, x=x))]
    assert all(math.isfinite(v) for v in got), got
    for g, want in zip(got, (value, first, second)):
        assert math.isclose(g, want, rel_tol=1e-12, abs_tol=0.0), (got, (value, first, second))


# ----- which variables get a gradient ----------------------------------------------------

def test_a_variable_the_result_does_not_depend_on_has_derivative_zero():
    # d/dx x^2 = 2x = 6 at 3; y does not appear: 0, in the order asked for (and said, as
    # the CLI says it of --wrt y)
    with pytest.warns(adcli.AdcliWarning, match="'y' does not appear"):
        g = adcli.parse("x^2").grad(wrt=["y", "x"], x=3.0)
    assert list(g) == ["y", "x"]
    assert float(g["x"]) == 6.0 and float(g["y"]) == 0.0


def test_a_variable_that_cancels_has_derivative_zero():
    # x + y - y = x: d/dy = 1 - 1 = 0.
    g = adcli.parse("x + y - y").grad(x=1.0, y=2.0)
    assert float(g["x"]) == 1.0 and float(g["y"]) == 0.0


def test_wrt_restricts_and_orders_the_gradient_and_hessian():
    # f = x*y + y^2: df/dy = x + 2y = 5 at (1, 2); Hessian in (y, x) order: [[2, 1], [1, 0]].
    f = adcli.parse("x*y + y^2")
    g = f.grad(wrt=["y"], x=1.0, y=2.0)
    assert list(g) == ["y"] and float(g["y"]) == 5.0
    np.testing.assert_array_equal(f.hessian(wrt=["y", "x"], x=1.0, y=2.0), [[2, 1], [1, 0]])


def test_a_bare_variable_has_derivative_one():
    f = adcli.parse("x")
    assert float(f.grad(x=7.0)["x"]) == 1.0
    assert float(f.derivative("x", 2, x=7.0)) == 0.0
    np.testing.assert_array_equal(f.hessian(x=7.0), [[0.0]])


@pytest.mark.parametrize("text, value", [
    ("2+3", 5.0), ("pi", math.pi), ("e^2", math.e**2), ("sin(0)", 0.0), ("2(3)", 6.0),
])
def test_a_constant_expression_has_an_empty_gradient(text, value):
    f = adcli.parse(text)
    assert f.variables == ()
    assert float(f.value()) == value
    assert f.grad() == {}
    assert f.hessian().shape == (0, 0)


def test_the_hessian_is_symmetric_for_a_mixed_expression():
    # f = x^2 y + sin(y) (the README example): f_xx = 2y = 4, f_xy = 2x = 2,
    # f_yy = -sin(y) = -sin 2.
    h = adcli.parse("x^2*y + sin(y)").hessian(x=1.0, y=2.0)
    np.testing.assert_allclose(h, [[4.0, 2.0], [2.0, -math.sin(2.0)]], rtol=1e-15)


@pytest.mark.parametrize("order, expected", [
    # d^n/dx^n x^5 at x = 2: 5x^4 = 80, 20x^3 = 160, 60x^2 = 240, 120x = 240, 120, 0.
    (0, 32.0), (1, 80.0), (2, 160.0), (3, 240.0), (4, 240.0), (5, 120.0), (6, 0.0),
])
def test_nth_derivative_of_a_polynomial(order, expected):
    assert float(adcli.parse("x^5").derivative("x", order, x=2.0)) == expected
