"""adcli._sincos: sin and cos of one argument in one call (issue 12, E3 on one core), with
np.sin's and np.cos's numbers to the bit; and the kernel's steps that use it."""
import platform
import shutil
import sys
import sysconfig

import numpy as np
import pytest

import adcli
from adcli import kernel
from adcli.functions import FAR

E3 = ("exp(sin(x)*y)/(1 + z^2) + log(1 + x^2 + y^2)*cos(z*y) - tanh(x*y - z)*sqrt(x^2 + z^2 + 1)"
      " + (x + 2)^1.5/(y + cos(x)^2) + sin(x*z)^3*exp(-y/z)")


def _compiler() -> bool:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None


@pytest.fixture
def sincos():
    made = kernel._fast_sincos()
    if made is None:
        pytest.skip("adcli._sincos is not built here (see test_the_install_builds_it)")
    return made


@pytest.mark.skipif(not (sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
                         and _compiler()), reason="built only with glibc and a C compiler")
def test_the_install_builds_it_and_the_kernel_takes_it():
    assert kernel._fast_sincos() is not None


def test_it_gives_numpys_numbers_in_every_binade_it_takes(sincos):
    rng = np.random.default_rng(12)
    exponents = np.repeat(np.arange(-1022, 27), 400)
    x = np.ldexp(rng.uniform(1.0, 2.0, exponents.size), exponents) * \
        rng.choice([-1.0, 1.0], exponents.size)
    x = np.concatenate([x[np.abs(x) <= FAR], [0.0, -0.0, FAR, -FAR]])
    s, c = np.full_like(x, 7.0), np.full_like(x, 7.0)
    assert sincos(x, s, c, FAR) is True
    assert kernel.identical(s, np.sin(x)) and kernel.identical(c, np.cos(x))


@pytest.mark.parametrize("odd", [np.inf, -np.inf, np.nan, 5e-324, -1e-310, FAR * 2, -1e300])
@pytest.mark.parametrize("limit", [FAR, np.inf])
def test_a_point_it_does_not_take_leaves_everything_to_numpy(sincos, odd, limit):
    if limit == np.inf and abs(odd) > FAR and np.isfinite(odd):
        odd = 5e-324  # (every finite point is within an infinite limit)
    x = np.array([0.5, 1.0, odd, 2.0])
    s, c = np.full(4, 7.0), np.full(4, 7.0)
    assert sincos(x, s, c, limit) is False
    assert (s == 7.0).all() and (c == 7.0).all()


def test_a_strided_or_non_float64_argument_is_left_to_numpy(sincos):
    s, c = np.full(5, 7.0), np.full(5, 7.0)
    assert sincos(np.arange(10.0)[::2], s, c, FAR) is False
    assert sincos(np.arange(5.0, dtype=np.float32), s, c, FAR) is False
    assert (s == 7.0).all() and (c == 7.0).all()
    with pytest.raises(ValueError, match="different lengths"):
        sincos(np.arange(5.0), s, np.empty(4), FAR)


def test_cos_may_write_over_its_argument(sincos):
    x = np.linspace(-3.0, 3.0, 1001)
    place, s = x.copy(), np.empty_like(x)
    assert sincos(place, s, place, FAR) is True
    assert kernel.identical(s, np.sin(x)) and kernel.identical(place, np.cos(x))


def _pairs(program) -> int:
    return sum(kernel._pairs(a, b) for a, b in zip(program.ops, program.ops[1:]))


PAIRED = [
    ("sin(x)", 1),                       # sin's rule is cos(x)
    ("sin(x)^2 + cos(x)^2", 1),
    ("cos(x*y) * sin(x*y) + x", 1),
    (E3, 3),
    ("sin(x) + sin(y)", 2),
    ("tan(x) + x^2", 0),
]
N = 3 * 32768 + 5  # several blocks (run in threads), the odd points in a later one
ODD = [5e-324, -1e-310, 2.0**27, 3e8, -0.0, 1e-8]  # subnormal, past FAR: numpy's way


def _columns(expression, odd):
    rng = np.random.default_rng(3)
    at = {name: rng.uniform(0.5, 1.5, N) for name in expression.variables}
    at["x"][70_000:70_000 + len(odd)] = odd
    return at


@pytest.mark.parametrize("text, pairs", PAIRED)
def test_programs_pair_sin_and_cos_and_give_the_tapes_numbers(sincos, tape, text, pairs):
    expression = adcli.parse(text)
    assert _pairs(kernel.program(expression, expression.variables, 1)) == pairs
    at = _columns(expression, ODD)
    got, want = expression.derivatives(at), tape(expression, at)
    # (finite, so the kernel's numbers are the ones given: it hands the rest to the tape)
    assert np.isfinite(want.value).all()
    assert kernel.identical(got.value, want.value)
    for name in want.gradient:
        assert np.isfinite(want.gradient[name]).all()
        assert kernel.identical(got.gradient[name], want.gradient[name]), name


@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
@pytest.mark.parametrize("text", [text for text, pairs in PAIRED if pairs])
def test_a_paired_step_sees_a_nan_or_inf(sincos, text, bad):
    expression = adcli.parse(text)
    at = _columns(expression, [bad])
    program = kernel.program(expression, tuple(expression.variables), 1)
    assert program.run(at, N)[2] is False  # "perhaps not finite": the tape will run
    at["x"][70_000] = 1.0
    assert program.run(at, N)[2] is True


def test_a_strided_column_takes_numpys_way(sincos, tape):
    expression = adcli.parse("x*y + sin(x)^2 - y/x")
    table = np.linspace(1.0, 3.0, 3 * 40_000).reshape(40_000, 3)
    at = {"x": table[:, 0], "y": table[:, 2]}
    got, want = expression.derivatives(at), tape(expression, at)
    for name in want.gradient:
        assert kernel.identical(got.gradient[name], want.gradient[name]), name


def test_without_it_programs_are_unpaired(monkeypatch):
    monkeypatch.setattr(kernel, "_sincos_checked", True)
    monkeypatch.setattr(kernel, "_sincos", None)
    expression = adcli.parse(E3)
    assert _pairs(kernel.program(expression, expression.variables, 1)) == 0
