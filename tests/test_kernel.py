"""The kernel (adcli/kernel.py) gives the tape's numbers, to the last bit.

Value and gradient through a Program (folded, shared, buffered, in threads) and through a
Schedule (the tape's walk without its objects) are compared with the tape itself: for
every primitive of the registry at sampled points, at kinks, edges and specials (abs at
0, min/max ties, pow at 0^0, sqrt at 0, log at -1, infinities, nan), with constant and
repeated arguments, and for random expressions. "The same" is ``kernel.identical``: equal
float64s, zeros of the same sign, nan where nan. Then the ways the kernel must refuse or
step aside: a rule that reads the data, state kept from the probe points, non-finite
results (the tape names the culprit), and rules that look at a constant's value.
"""
from __future__ import annotations

import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import adcli
from adcli import kernel, sides
from adcli.functions import CALLABLE, OPERATORS, PRIMITIVES, Primitive

SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 2.0, 3.0, 1e-300, -1e-300, 5e-324, 1e300,
           -1e300, 1e200, 710.0, -745.0, 30.0, -30.0, np.inf, -np.inf, np.nan]
LANGUAGE = sorted(n for n, cls in PRIMITIVES.items()
                  if cls.callable or cls in OPERATORS.values())


def text_of(name: str) -> str:
    cls = PRIMITIVES[name]
    if name == "neg":
        return "-a"
    if cls.symbol:
        return f"a {cls.symbol} b"
    return f"{name}(a)" if cls.arity == 1 else f"{name}(a, b)"


def points(cls, n: int = 64):
    """Columns for cls's arguments: its sampling domain, then every pair of specials."""
    rng = np.random.default_rng(zlib.crc32(cls.name.encode()))
    sampled = [rng.uniform(lo, hi, n) for lo, hi in cls.domain]
    if cls.arity == 1:
        return [np.concatenate([sampled[0], SPECIAL])]
    a, b = (c.ravel() for c in np.meshgrid(SPECIAL, SPECIAL))
    return [np.concatenate([s, c]) for s, c in zip(sampled, (a, b))]


def assert_identical(got, want, what=""):
    value, grads = got[:2]
    assert kernel.identical(value, want.value), f"{what}: value {value} vs {want.value}"
    for name, g in want.gradient.items():
        assert kernel.identical(grads[name], g), \
            f"{what}: d/d{name}\n{np.asarray(grads[name])}\nvs\n{g}"


def both_engines(expression, at: dict, wrt=None):
    """(value, gradient) from a Program, a Schedule and ``interpret``, on flat columns."""
    wrt = tuple(expression.variables if wrt is None else wrt)
    n = len(next(iter(at.values())))
    return (kernel.program(expression, wrt, 1).run(at, n),
            kernel.schedule(expression, 1).run(at, n, wrt),
            kernel.interpret(expression, at, n, wrt, 1))


# ----- every primitive, everywhere -----------------------------------------------------

@pytest.mark.parametrize("name", LANGUAGE)
def test_every_primitive_gives_the_tapes_numbers(name, tape):
    cls = PRIMITIVES[name]
    expression = adcli.parse(text_of(name))
    at = dict(zip(["a", "b"], points(cls)))
    want = tape(expression, at)
    for got in both_engines(expression, at):
        assert_identical(got, want, name)


@pytest.mark.parametrize("name", LANGUAGE)
@pytest.mark.parametrize("shape", ["constant first", "constant second", "repeated",
                                   "composed"])
def test_constant_repeated_and_composed_arguments(name, shape, tape):
    """Constants change the recorded rule (no gradient for them; pow looks at its
    exponent); a repeated argument sums two gradients into one; composition runs rules
    on gradients that are not the seed."""
    cls = PRIMITIVES[name]
    if cls.arity == 1 and shape.startswith("constant"):
        pytest.skip("one argument")
    args = {"constant first": ["2.5", "x"], "constant second": ["x", "3"],
            "repeated": ["x", "x"], "composed": ["sin(x)*x", "exp(x)/x"]}[shape][:cls.arity]
    if name == "neg":
        text = f"-({args[0]})"
    elif cls.symbol:
        text = f"({args[0]}) {cls.symbol} ({args[1]})"
    else:
        text = f"{name}({', '.join(args)})"
    expression = adcli.parse(f"x*({text}) + {text}")
    at = {"x": np.concatenate([np.linspace(-4.0, 4.0, 81), SPECIAL])}
    want = tape(expression, at)
    for got in both_engines(expression, at):
        assert_identical(got, want, text)


@pytest.mark.parametrize("text, x", [
    ("abs(x)", 0.0), ("abs(x)", -0.0),
    ("min(x, 1)", 1.0), ("max(x, 1)", 1.0), ("min(x, x)", 2.0),
    ("x^y", (0.0, 0.0)), ("x^y", (0.0, 2.0)), ("x^y", (-2.0, 3.0)), ("x^y", (0.0, -1.0)),
    ("x^0", 0.0), ("x^2", 0.0), ("x^0.5", 0.0), ("0^x", 0.0), ("x^-1", -0.0),
    ("sqrt(x)", 0.0), ("log(x)", -1.0), ("log(x)", 0.0), ("cbrt(x)", 0.0),
    ("hypot(x, y)", (0.0, 0.0)), ("atan2(x, y)", (0.0, 0.0)),
    ("asin(x)", 1.0), ("acosh(x)", 1.0), ("atanh(x)", 1.0), ("sigmoid(x)", 800.0),
])
def test_kinks_and_edges_take_the_tapes_conventions(text, x, tape):
    expression = adcli.parse(text)
    values = x if isinstance(x, tuple) else (x,)
    at = {v: np.array([value]) for v, value in zip(expression.variables, values)}
    want = tape(expression, at)
    for got in both_engines(expression, at):
        assert_identical(got, want, text)


def test_gradients_are_summed_in_the_tapes_order(tape):
    # d/dx = 1e16 + 1 - 1e16 + 1: 2, 1 or 0 depending on the order of the sum.
    expression = adcli.parse("1e16*x + x + (-1e16)*x + sin(x)*0 + x")
    at = {"x": np.array([0.3])}
    want = tape(expression, at)
    for got in both_engines(expression, at):
        assert_identical(got, want)


def test_blocks_and_threads_give_the_same_numbers(monkeypatch, tape):
    expression = adcli.parse("exp(sin(x)*y)/(1 + y^2) + tanh(x*y)*sqrt(x^2 + 1)")
    rng = np.random.default_rng(5)
    at = {"x": rng.normal(size=20_011), "y": rng.normal(size=20_011)}
    want = tape(expression, at)
    for block, workers in [(1, 1), (97, 2), (4096, 2), (1 << 20, 1)]:
        monkeypatch.setattr(kernel, "BLOCK", block if block > 1 else 20_011)
        monkeypatch.setattr(kernel, "_workers", lambda workers=workers: workers)
        got = kernel.program(expression, ("x", "y"), 1).run(at, 20_011)
        assert_identical(got, want, f"block {block}")


def test_broadcast_and_strided_values_through_the_api(tape):
    expression = adcli.parse("x*y + sin(x)^2 - y/x")
    table = np.arange(1.0, 25.0).reshape(8, 3)          # columns are strided views
    at = {"x": table[:, 0], "y": table[:, 2]}
    assert_same_result(expression.derivatives(at), tape(expression, at))
    at = {"x": np.linspace(1.0, 2.0, 3).reshape(3, 1), "y": np.arange(4.0)}
    assert_same_result(expression.derivatives(at), tape(expression, at))


def assert_same_result(got, want):
    assert got.value.shape == want.value.shape
    assert kernel.identical(got.value, want.value)
    assert got.gradient.keys() == want.gradient.keys()
    for name in want.gradient:
        assert kernel.identical(got.gradient[name], want.gradient[name])


# ----- random expressions ------------------------------------------------------------

UNARY = sorted(n for n, cls in CALLABLE.items() if cls.arity == 1)
BINARY = sorted(n for n, cls in CALLABLE.items() if cls.arity == 2)
INFIX = ["+", "-", "*", "/", "^"]


@st.composite
def expressions(draw, depth=4):
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(["x", "y", "z", "x", "2", "0.5", "-1.5", "0", "3"]))
    kind = draw(st.sampled_from(["unary", "binary", "infix", "infix", "neg"]))
    inner = expressions(depth=depth - 1)
    if kind == "unary":
        return f"{draw(st.sampled_from(UNARY))}({draw(inner)})"
    if kind == "binary":
        return f"{draw(st.sampled_from(BINARY))}({draw(inner)}, {draw(inner)})"
    if kind == "neg":
        return f"-({draw(inner)})"
    return f"({draw(inner)}) {draw(st.sampled_from(INFIX))} ({draw(inner)})"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=expressions(), seed=st.integers(0, 2**32 - 1))
def test_random_expressions_give_the_tapes_numbers(text, seed):
    expression = adcli.parse(text)
    rng = np.random.default_rng(seed)
    at = {v: np.concatenate([rng.normal(0.0, 2.0, 24), rng.choice(SPECIAL, 8)])
          for v in expression.variables}
    if not at:
        return
    with pytest.MonkeyPatch.context() as m:
        m.setattr(kernel, "evaluate", lambda *args, **kwargs: None)
        want = expression.derivatives(at)
    for got in both_engines(expression, at):
        assert_identical(got, want, text)


# ----- where the kernel refuses, or steps aside -------------------------------------------

def test_a_rule_that_reads_the_data_stays_on_the_tape(data_reading_ramp, tape):
    expression = adcli.parse("data_reading_ramp(x) * x")
    with pytest.raises(kernel.NotReplayable):
        kernel.program(expression, ("x",), 1)
    with pytest.raises(kernel.NotReplayable):
        kernel.schedule(expression, 1)
    at = {"x": np.array([-1.0, 2.0])}
    assert kernel.evaluate(expression, at, 2, ("x",), 1) is None
    assert_same_result(expression.derivatives(at), tape(expression, at))
    assert list(expression.grad(at=at)["x"]) == [0.0, 4.0]


def test_a_rule_that_branches_on_the_data_stays_on_the_tape(registered, tape):
    class Steep(Primitive):  # slope 2 where all points are positive, else 1: a branch
        name = "kernel_test_steep"
        def forward(self, x): return x
        def backward(self, gy): return 2.0 * gy if (self.inputs[0].data > 0).all() else gy
    registered(Steep)
    expression = adcli.parse("kernel_test_steep(x)")
    with pytest.raises(kernel.NotReplayable, match="reads the values"):
        kernel.program(expression, ("x",), 1)
    for x in ([1.0, 2.0], [-1.0, 2.0]):
        at = {"x": np.array(x)}
        assert_same_result(expression.derivatives(at), tape(expression, at))


def test_a_rule_that_keeps_numbers_of_the_probe_points_is_refused(registered):
    class Holding(Primitive):  # a mask made once and kept: wrong on any other points
        name, callable = "kernel_test_holding", False
        def __init__(self, mask=None): self.mask = mask
        def forward(self, g): return np.where(self.mask, g, 0.0)
        def backward(self, gy): return Holding(self.mask)(gy)

    class Masked(Primitive):
        name = "kernel_test_masked"
        def forward(self, x): return x
        def backward(self, gy): return Holding(np.array([True, False]))(gy)
    registered(Holding)
    registered(Masked)
    with pytest.raises(kernel.NotReplayable, match="keeps numbers"):
        kernel.program(adcli.parse("kernel_test_masked(x)"), ("x",), 1)


def test_a_rule_that_looks_at_a_constant_is_recorded_per_value(tape):
    # pow's rule has no base gradient for a constant exponent 0, and one for 2 or 3.
    for text in ["x^0 + x^2", "x^3 + x^0", "x^0"]:
        expression = adcli.parse(text)
        at = {"x": np.array([-1.5, 0.0, 2.0])}
        assert_identical(kernel.program(expression, ("x",), 1).run(at, 3),
                         tape(expression, at), text)


def test_non_finite_results_come_from_the_tape_with_its_diagnostics(tape):
    expression = adcli.parse("log(x) + sqrt(x)")
    at = {"x": np.array([-1.0, 0.0, 4.0])}
    got, want = expression.derivatives(at), tape(expression, at)
    assert_same_result(got, want)
    assert got.diagnostics.masks.keys() == want.diagnostics.masks.keys() != set()
    for key, mask in want.diagnostics.masks.items():
        np.testing.assert_array_equal(got.diagnostics.masks[key], mask)


def test_a_forward_that_is_not_its_ufunc_is_not_replaced():
    class NotExp:
        name = "exp"
        def forward(self, x): return np.exp(x) * (1.0 + 2.0**-52 * (x > 1))
    assert kernel._ufunc_of(NotExp) is None
    assert kernel._ufunc_of(PRIMITIVES["exp"]) is np.exp


def test_pow_with_a_constant_exponent_is_checked_against_pow_forward():
    a = np.concatenate([np.linspace(-5.0, 5.0, 101), SPECIAL])
    for b in [2.0, 3.0, -1.0, -2.0, 0.5, 1.5, 7.0, 0.0]:
        plan = kernel._power_steps(np.asarray(b))
        assert plan is not None, b
        with np.errstate(all="ignore"):
            assert kernel.identical(kernel._run_plan(plan, a, np.asarray(b)),
                                    PRIMITIVES["pow"]().forward(a, np.asarray(b)))


def test_every_forward_makes_float64_arrays():
    """The kernel keeps what forward returns; the tape would convert it (Variable)."""
    for name in LANGUAGE:
        cls = PRIMITIVES[name]
        with np.errstate(all="ignore"):
            out = cls().forward(*points(cls, 8))
        assert isinstance(out, np.ndarray) and out.dtype == np.float64, name


# ----- the API's one-pass value and gradient ------------------------------------------------

def test_value_and_grad_is_one_evaluation(monkeypatch):
    expression = adcli.parse("sin(x1)+x1*x2")
    calls = []
    evaluate = kernel.evaluate
    monkeypatch.setattr(kernel, "evaluate", lambda *a, **k: calls.append(a) or evaluate(*a, **k))
    x1, x2 = np.linspace(-1, 1, 5), np.linspace(2, 3, 5)
    value, grad = expression.value_and_grad(x1=x1, x2=x2)
    assert len(calls) == 1
    np.testing.assert_array_equal(value, np.sin(x1) + x1 * x2)
    np.testing.assert_array_equal(grad["x1"], np.cos(x1) + x2)
    np.testing.assert_array_equal(grad["x2"], x1)


def test_orders_zero_and_one_use_the_kernel_and_two_the_tape(monkeypatch):
    expression = adcli.parse("x^3")
    calls = []
    evaluate = kernel.evaluate
    monkeypatch.setattr(kernel, "evaluate", lambda *a, **k: calls.append(a[-1]) or evaluate(*a, **k))
    assert expression.value(x=2.0) == 8.0
    assert expression.grad(x=2.0)["x"] == 12.0
    assert expression.hessian(x=2.0)[0, 0] == 12.0
    assert calls == [0, 1]


def test_program_steps_share_and_fold():
    """cos(x) in the forward pass serves sin's rule; x^1 and *1 cost nothing."""
    program = kernel.program(adcli.parse("sin(x) * cos(x)"), ("x",), 1)
    made = [op[0] for op in program.ops]
    assert made.count(np.cos) == 1 and made.count(np.sin) == 1
    assert kernel.program(adcli.parse("x * 1 / 1"), ("x",), 0).ops == []


def test_a_square_costs_two_multiplications():
    """x^2 forward is x*x and its rule is 2*x (then times gy): no pow, no opaque step, and
    no kink mask per block (a whole exponent has no kinks)."""
    program = kernel.program(adcli.parse("x^2"), ("x",), 1)
    assert [op[0] for op in program.ops] == [np.multiply, np.multiply]
    assert program.kinks == []


def _negations(program) -> int:
    """Steps that negate: np.negative, or a product with the constant -1."""
    def minus_one(args):
        return any(program.initial[a] is not None and program.initial[a] == -1.0
                   for a in args)
    return sum(f is np.negative or f is np.multiply and minus_one(args)
               for f, args, *_ in program.ops)


@pytest.mark.parametrize("text, negations, steps", [
    # d/dy of x/y - sin(x)*y is -sin(x), its d/dx 1/y - cos(x)*y: one negation, for the
    # output -sin(x); before folding there were three (the tape's -gy, twice, and it).
    ("x/y - sin(x)*y", 1, 11),
    # The subtraction's -gy times tanh(x*y)' goes into both partials' sums as a
    # subtraction; -tanh(x*y) stays, as d/dy is -tanh(x*y) - exp(x)/y^2, a (-a) - b.
    ("exp(x)/y - tanh(x*y)*y", 1, 17),
    # cos(x*y)'s -sin(x*y) is used twice, by outputs: negated once, not pushed into both.
    ("cos(x*y)", 1, 6),
])
def test_negations_fold_into_the_steps_that_use_them(text, negations, steps):
    expression = adcli.parse(text)
    program = kernel.program(expression, tuple(expression.variables), 1)
    assert (_negations(program), len(program.ops)) == (negations, steps)


@pytest.mark.parametrize("text", [
    "-x - y", "x - -y", "-x + y", "x + -y", "-(-x)*y", "(-x)*(-y) - x/(-y)",
    "-(x*y) + -(y/x)", "x*y - (x - y)*(y - x) - -(x*x)", "-(x - y)*-(y - x) + -x*-y"])
def test_folded_negations_keep_every_bit_and_zero_sign(text, tape):
    """Zeros of both signs everywhere: -(a + b) would be -0 where the tape's (-a) + (-b)
    is +0, so a fold that took that step would show here."""
    expression = adcli.parse(text)
    a, b = (c.ravel() for c in np.meshgrid(SPECIAL, SPECIAL))
    at = {"x": a, "y": b}
    want = tape(expression, at)
    assert_identical(kernel.program(expression, ("x", "y"), 1).run(at, len(a)), want, text)


@pytest.mark.parametrize("text", ["x^2.5", "x^y", "x^0.5 * x^3"])
def test_an_exponent_that_may_kink_keeps_its_mask(text):
    """A fractional or varying exponent kinks at 0, so its mask is made per block."""
    expression = adcli.parse(text)
    program = kernel.program(expression, tuple(expression.variables), 1)
    assert [function.name for function, _ in program.kinks] == ["pow"]


@pytest.mark.parametrize("l2, arrays, points", [
    (8 << 20, 5, 131072), (8 << 20, 2, 131072), (8 << 20, 7, 131072), (8 << 20, 9, 65536),
    (8 << 20, 29, 32768), (8 << 20, 40, 16384), (8 << 20, 100, 8192),
    (8 << 20, 1000, 4096),
    (2 << 20, 2, 131072), (2 << 20, 5, 32768), (2 << 20, 29, 32768),  # not below 32,768
    (2 << 20, 40, 16384), (2 << 20, 1000, 4096),                      # unless past CACHE
    (256 << 10, 5, 32768)])
def test_blocks_are_sized_to_stay_in_the_cores_cache(monkeypatch, l2, arrays, points):
    """8 bytes x points x arrays within the L2 cache, not below 32,768 points unless that
    passes CACHE (8 MB), as a power of two in 4096..131072."""
    monkeypatch.setattr(kernel, "_l2", [l2])
    assert kernel._block_for(arrays) == points


def test_the_l2_cache_is_read_as_linux_tells_it(tmp_path, monkeypatch):
    for index, (level, size) in enumerate([("1", "48K"), ("2", "2048K"), ("3", "300M")]):
        (tmp_path / f"index{index}").mkdir()
        (tmp_path / f"index{index}" / "level").write_text(level + "\n")
        (tmp_path / f"index{index}" / "size").write_text(size + "\n")
    (tmp_path / "coherency").write_text("")  # not an index: sorted first, and skipped
    monkeypatch.setattr(kernel, "_L2_FOLDER", str(tmp_path))
    assert kernel._read_l2() == 2 << 20
    monkeypatch.setattr(kernel, "_L2_FOLDER", str(tmp_path / "absent"))
    assert kernel._read_l2() is None


@pytest.mark.parametrize("block, n, workers, shared", [
    (131072, 10**6, 2, 131072),   # 8 blocks: four for each core
    (131072, 10**6, 1, 131072),
    (131072, 300_000, 2, 65536),  # 131,072 would leave one core with a single block
    (131072, 10**5, 2, 32768),    # never below 32,768 for the sake of sharing
    (131072, 10**5, 1, 32768),
    (16384, 10**5, 2, 16384)])    # a block sized for the cache stays as it is
def test_big_blocks_are_halved_so_that_every_core_has_work(block, n, workers, shared):
    assert kernel._shared_block(block, n, workers) == shared


@pytest.mark.parametrize("x, finite", [([1e308, 1e308, 1.0], True),   # the sum overflows
                                       ([1.0, np.inf, 2.0], False), ([np.nan, 1.0], False),
                                       ([0.5, 2.0], True)])
def test_the_kernel_says_whether_every_result_is_finite(x, finite, monkeypatch):
    monkeypatch.setattr(kernel, "BLOCK", 2)
    expression = adcli.parse("x + 0*y")
    at = {"x": np.array(x), "y": np.ones(len(x))}
    assert kernel.program(expression, ("x", "y"), 1).run(at, len(x))[2] is finite
    assert kernel.schedule(expression, 1).run(at, len(x), ("x", "y"))[2] is finite
    assert kernel.interpret(expression, at, len(x), ("x", "y"), 1)[2] is finite


OURS = sorted(n for n, cls in PRIMITIVES.items() if kernel._ours(cls()))


def probe_columns(cls):
    """cls's sampling points and specials, then the kernel's own probes."""
    return [np.concatenate([c, p]) for c, p in zip(points(cls), kernel._probes(cls.arity))]


def made_from_finite(name):
    """The primitive's probe columns and the points where it makes nan or inf from
    finite arguments."""
    cls = PRIMITIVES[name]
    columns = probe_columns(cls)
    with np.errstate(all="ignore"):
        out = np.asarray(cls().forward(*columns))
    made = ~np.isfinite(out) & np.logical_and.reduce([np.isfinite(c) for c in columns])
    return columns, np.flatnonzero(made)


@pytest.mark.parametrize("name", OURS)
def test_every_primitive_flags_the_nan_or_inf_it_makes_from_finite_arguments(name):
    """A block with finite inputs is taken as finite when no step raised overflow, divide
    or invalid (Program.run): sound only if each primitive raises one wherever it makes
    nan or inf from finite arguments. Checked point by point, so one flagged point cannot
    stand for another."""
    columns, made = made_from_finite(name)
    for i in made:
        with kernel._counting_flags():  # as the kernel's blocks run
            PRIMITIVES[name]().forward(*[c[i:i + 1] for c in columns])
            raised = kernel._flags.count
        assert raised, f"{name}{tuple(c[i] for c in columns)}: nan/inf with no flag"


@pytest.mark.parametrize("name", OURS)
def test_a_points_bits_do_not_depend_on_the_other_points_in_its_batch(name):
    """The kernel's blocks, the CLI's chunks and the tape's whole arrays hold different
    neighbours: each point's value must be its own (datan2(1, 5e-324) once gave 0 or
    5e-324, by whether a neighbour needed scaling)."""
    cls = PRIMITIVES[name]
    columns = probe_columns(cls)
    with np.errstate(all="ignore"):
        whole = np.asarray(cls().forward(*columns))
        alone = [np.asarray(cls().forward(*[c[i:i + 1] for c in columns])).reshape(())
                 for i in range(len(columns[0]))]
    differ = [i for i, y in enumerate(alone) if not kernel.identical(y, whole[i])]
    assert not differ, [tuple(c[i] for c in columns) for i in differ[:5]]


@pytest.mark.parametrize("name", ["exp", "log", "div", "pow", "atanh", "acosh"])
def test_the_probes_make_nan_or_inf_for_the_flag_check_to_see(name):
    assert len(made_from_finite(name)[1]) > 0


@pytest.mark.parametrize("text, x, finite", [
    ("exp(x)", [1.0, 710.0], False),     # overflow: a flag, then the results are summed
    ("exp(x)", [1.0, 2.0], True),
    ("exp(x)", [1.0, np.nan], False),    # nan in: no flag, but the inputs are checked
    ("x*x", [np.inf, 1.0], False),       # inf in: no flag either
    ("1/x", [1.0, 0.0], False),
    ("x + 1e308*10", [1.0, 2.0], False)])  # folded to inf: x + inf raises no flag
def test_a_block_is_finite_only_if_it_is(text, x, finite, monkeypatch):
    monkeypatch.setattr(kernel, "BLOCK", 2)
    program = kernel.program(adcli.parse(text), ("x",), 1)
    with np.errstate(all="ignore"):
        assert program.run({"x": np.array(x)}, len(x))[2] is finite


@pytest.mark.parametrize("text", ["exp(x)^2", "exp(x)^2 + sin(x)", "exp(x^2)^2"])
def test_c_times_a_times_a_is_rescaled_and_still_the_tapes(text, tape, monkeypatch):
    """(2a)*a laid out as 2*(a*a) reusing the value's a*a: one step less, the same bits,
    but where a*a rounds below the normal range, where the block is run again as the tape
    computes it. exp(x)^2 at x near -355 puts a*a there (exp(-355)^2 ~ 1e-308)."""
    expression = adcli.parse(text)
    program = kernel.program(expression, ("x",), 1)
    assert program.rescaled and len(program.ops) < len(program.exact.ops)
    x = np.concatenate([np.linspace(-380.0, -340.0, 4001), np.linspace(-3.0, 3.0, 61),
                        [0.0, -0.0, 400.0, -np.inf, np.nan]])
    monkeypatch.setattr(kernel, "BLOCK", 512)
    want = tape(expression, {"x": x})
    with np.errstate(all="ignore"):
        value, grads, _, _ = program.run({"x": x}, len(x))
    assert kernel.identical(value, want.value)
    assert kernel.identical(grads["x"], want.gradient["x"])


@pytest.mark.parametrize("c, exact", [(2.0, True), (-2.0, True), (4.0, True), (2.0**512, True),
                                      (1.0, False), (0.5, False), (3.0, False),
                                      (2.0**513, False), (np.inf, False), (np.nan, False)])
def test_only_an_exact_doubling_rescales(c, exact):
    """c = 0.5 would not do: half a subnormal number is not exact."""
    assert kernel._exact_scale(np.asarray(c)) is exact


def test_a_product_of_two_doublings_is_one_step_fewer():
    """exp(x^2)^2's gradient, (2f)*(2x) on the tape, is (4f)*x: five steps in all (x*x,
    exp, f = e*e, 4f, 4f*x), as many array passes as the naive numpy 4*x*f."""
    program = kernel.program(adcli.parse("exp(x^2)^2"), ("x",), 1)
    assert [op[0] for op in program.ops] == [np.multiply, np.exp] + [np.multiply] * 3
    assert len(program.exact.ops) == 7


# y = 1.5 * 2^1022: (x^2 + y)^2's rule (2M)*(2x) is finite for small x while 4M overflows;
# y = 1.5 * 2^1023: 2M overflows on the tape too; x = 2^512: d*b = 2x is finite but b*b is not.
@pytest.mark.parametrize("x, y", [(0.01, 1.5 * 2.0**1022), (-1e-300, 1.5 * 2.0**1022),
                                  (0.0, 1.5 * 2.0**1022), (0.01, 1.5 * 2.0**1023),
                                  (2.0**512, 1.0), (-(2.0**511), -3.0), (3.0, 5e-324),
                                  (1e-160, 1e-310), (np.inf, 1.0), (0.5, np.nan)])
def test_two_doublings_rescaled_keep_the_tapes_numbers_where_a_factor_overflows(x, y, tape):
    """((c*d)*a)*b is the tape's (c*a)*(d*b) to the bit: where (c*d)*a overflows and the
    tape's c*a does not, the block runs again as the tape computes it."""
    expression = adcli.parse("(x^2 + y)^2")
    program = kernel.program(expression, ("x", "y"), 1)
    assert program.rescaled  # no step fewer: 2M is y's gradient too
    at = {"x": np.array([x, 0.25]), "y": np.array([y, 1.0])}
    want = tape(expression, at)
    with np.errstate(all="ignore"):
        value, grads, _, _ = program.run(at, 2)
    assert kernel.identical(value, want.value)
    for name in ("x", "y"):
        assert kernel.identical(grads[name], want.gradient[name]), name


def test_without_running_the_block_again_two_doublings_would_overflow(monkeypatch):
    """What the test above guards against: 4M overflows where the tape's 2M does not."""
    expression = adcli.parse("(x^2 + y)^2")
    program = kernel.program(expression, ("x", "y"), 1)
    m = 1.5 * 2.0**1022 + 1e-4
    assert np.isfinite(4 * (m * 0.01))  # the true derivative 4Mx, and the tape's (2M)(2x)
    at = {"x": np.array([0.01]), "y": np.array([1.5 * 2.0**1022])}
    with np.errstate(all="ignore"):
        right = program.run(at, 1)[1]["x"]
        monkeypatch.setattr(program, "exact", None)
        wrong = program.run(at, 1)[1]["x"]
    assert right[0] == (2 * m) * (2 * 0.01) and np.isinf(wrong[0])


def test_without_running_the_block_again_rescaling_would_change_digits(monkeypatch):
    """What the test above guards against: the subnormal a*a does change the gradient."""
    expression = adcli.parse("exp(x)^2")
    program = kernel.program(expression, ("x",), 1)
    monkeypatch.setattr(program, "exact", None)
    x = np.linspace(-380.0, -340.0, 4001)
    with np.errstate(all="ignore"):
        _, grads, _, _ = program.run({"x": x}, len(x))
        tape = 2 * np.exp(x) * np.exp(x)  # the tape's (2a)*a
    assert not kernel.identical(grads["x"], tape)


def test_every_thread_counts_the_flags_of_its_own_blocks(monkeypatch):
    """numpy's error state is per thread: the pool's threads count flags too."""
    import threading
    import time

    monkeypatch.setattr(kernel, "_workers", lambda: 2)
    threads, seen = set(), []

    def block(start):
        threads.add(threading.current_thread().name)
        time.sleep(0.01)  # long enough for the pool's thread to take some blocks
        count, under = kernel._flags.count, kernel._flags.under
        np.exp(np.array([710.0]))   # overflow
        np.exp(np.array([-745.0]))  # underflow (5e-324, inexact)
        seen.append((kernel._flags.count - count, kernel._flags.under - under))
        return True

    assert kernel._share_out(block, range(8))
    assert len(threads) == 2 and seen == [(1, 1)] * 8


def test_a_step_adcli_did_not_define_is_not_trusted_to_flag(registered):
    @registered
    class Quiet(Primitive):
        """nan without a flag, as a function registered from outside may make it."""
        name, arity, callable = "quiet", 1, True

        def forward(self, x):
            return np.where(x > 1.0, np.nan, x)

        def backward(self, gy):
            return gy

    program = kernel.program(adcli.parse("quiet(x) + x"), ("x",), 1)
    assert not program.flagged
    assert program.run({"x": np.array([0.5, 2.0])}, 2)[2] is False
    assert kernel.program(adcli.parse("sin(x)*x"), ("x",), 1).flagged


@pytest.mark.parametrize("text", ["abs(x) + max(x, y)", "x^0.5 + cbrt(x)*y", "min(x, 0)*y",
                                  "abs(x - y) + sin(x)"])
def test_kinks_are_reported_as_the_tape_reports_them(text, tape, monkeypatch):
    # The kinks each marks, before adcli.sides drops those where f is differentiable all
    # the same (min(x, 0)*y at the origin): that is the same step for both, after them.
    monkeypatch.setattr(sides, "LIMIT", 0)
    expression = adcli.parse(text)
    at = {"x": np.array([0.0, 1.0, 2.0, 0.0]), "y": np.array([1.0, 1.0, 0.0, 0.0])}
    at = {v: at[v] for v in expression.variables}
    want = tape(expression, at)
    assert want.diagnostics.masks, "the points must sit on some kink"
    for few in (0, 10**9):  # a Program, then a Schedule
        monkeypatch.setattr(kernel, "FEW", few)
        got = adcli.parse(text).derivatives(at)
        assert_same_result(got, want)
        assert got.diagnostics.masks.keys() == want.diagnostics.masks.keys()
        for key, mask in want.diagnostics.masks.items():
            np.testing.assert_array_equal(got.diagnostics.masks[key], mask)
    kinks = {}
    for function, mask in kernel.interpret(expression, at, 4, expression.variables, 1)[3]:
        kinks[function.name] = kinks.get(function.name, False) | mask
    assert {k: tuple(m) for k, m in kinks.items() if m.any()} == \
        {name: tuple(m) for (name, what), m in want.diagnostics.masks.items() if what == "kink"}



# abs(y) and sqrt(y) sit on their kinks at y = 0, abs(x - 1) at x = 1: worked out by hand.
MIXED = "abs(y)*x + sqrt(y)*x^2 + abs(x - 1)"
MIXED_AT = {"y": np.array([0.0, 0.0, 1.0, 1.0]), "x": np.array([0.0, 1.0, 2.0, 1.0])}
MIXED_KINKS = {("x",): {"abs": [0, 1, 0, 1]},
               ("y",): {"abs": [1, 1, 0, 0], "sqrt": [1, 1, 0, 0]},
               ("y", "x"): {"abs": [1, 1, 0, 1], "sqrt": [1, 1, 0, 0]}}


def _kinks(masks) -> dict:
    return {name: np.asarray(m, dtype=int).tolist() for (name, what), m in masks.items()
            if what == "kink"}


@pytest.mark.parametrize("wrt", list(MIXED_KINKS))
def test_only_kinks_of_what_the_variables_differentiated_in_reach_are_marked(
        wrt, tape, monkeypatch):
    # d/dx of abs(y)*x does not use abs's derivative: y = 0 was said to be a kink of it.
    expression = adcli.parse(MIXED)
    want = MIXED_KINKS[wrt]
    assert _kinks(tape(expression, MIXED_AT, wrt).diagnostics.masks) == want
    for few in (0, 10**9):  # a Program, then a Schedule
        monkeypatch.setattr(kernel, "FEW", few)
        got = adcli.parse(MIXED).derivatives(MIXED_AT, wrt=wrt)
        assert _kinks(got.diagnostics.masks) == want
    interpreted = {}
    for function, mask in kernel.interpret(expression, MIXED_AT, 4, wrt, 1)[3]:
        interpreted[function.name] = interpreted.get(function.name, False) | mask
    assert _kinks({(k, "kink"): m for k, m in interpreted.items()}) == want
    if len(wrt) == 1:  # Taylor mode, from the tape's forward pass
        nth = expression.nth_derivative(wrt[0], 2, MIXED_AT)
        assert _kinks(nth.diagnostics.masks) == want

def test_an_expression_with_diff_stays_on_the_tape():
    expression = adcli.parse("diff(x^3, x) + x")
    assert kernel.evaluate(expression, {"x": np.array([2.0])}, 1, ("x",), 1) is None
    assert expression.grad(x=2.0)["x"] == 13.0   # 6x + 1


@pytest.mark.parametrize("block, arrays, sizes", [
    (32768, 5, [32768, 65536, 131072]),   # E1: 5.2 MB at 131,072 points
    (32768, 7, [32768, 65536, 131072]),   # 7.3 MB
    (32768, 9, [32768, 65536]),           # 131,072 would be 9.4 MB, past CACHE
    (32768, 28, [32768]),                 # E3
    (131072, 2, [131072])])
def test_the_block_sizes_tried_are_doublings_that_stay_within_the_cache(block, arrays, sizes):
    assert kernel._block_sizes(block, arrays) == sizes


def test_a_tuner_tries_each_size_in_turn_then_keeps_the_fastest():
    tuner = kernel._Tuner([32768, 65536, 131072])
    per_point = {32768: [5.0, 4.0, 6.0], 65536: [3.0, 9.0, 9.0], 131072: [3.5, 3.2, 3.1]}
    tried = []
    for _ in range(kernel.TUNE_ROUNDS):
        for _ in range(3):
            assert tuner.best is None
            size = tuner.next()
            tried.append(size)
            tuner.took(size, per_point[size].pop(0))
    assert tried == [32768, 65536, 131072] * 3
    assert tuner.best == 65536  # its best call: one quiet moment shows what a size can do


def test_one_size_is_kept_without_timing():
    assert kernel._Tuner([32768]).best == 32768


def test_a_program_learns_its_block_size_from_its_big_calls(monkeypatch):
    """Big calls run each size in turn and report their time; the size whose calls were
    fastest is kept. The numbers are the same whatever the size."""
    monkeypatch.setattr(kernel, "_workers", lambda: 1)
    monkeypatch.setattr(kernel, "_l2", [1 << 20])  # the sizes tried start from the L2's
    expression = adcli.parse("exp(x^2)^2")
    program = kernel.program(expression, ("x",), 1)
    used, run_block = [], kernel.Program._block

    def spy(self, columns, results, masks, found, start, stop, spare, size):
        if start == 0:
            used.append(size)
        return run_block(self, columns, results, masks, found, start, stop, spare, size)
    monkeypatch.setattr(kernel.Program, "_block", spy)
    seconds = {32768: 3.0, 65536: 1.0, 131072: 2.0}  # per call, whatever the points
    clock = iter(range(1000))

    class Clock:
        @staticmethod
        def perf_counter():  # called as a call begins and as it ends
            tick = next(clock)
            return 10.0 * tick + (seconds[used[-1]] if tick % 2 else 0.0)
    monkeypatch.setattr(kernel, "time", Clock)
    n = 2 * 131072
    x = np.random.default_rng(5).uniform(-2, 2, n)
    results = [program.run({"x": x}, n) for _ in range(3 * kernel.TUNE_ROUNDS + 2)]
    assert used == [32768, 65536, 131072] * kernel.TUNE_ROUNDS + [65536, 65536]
    for value, grads, _, _ in results[1:]:
        assert value.tobytes() == results[0][0].tobytes()
        assert grads["x"].tobytes() == results[0][1]["x"].tobytes()
    f = np.exp(x * x) ** 2
    np.testing.assert_allclose(results[0][1]["x"], 4 * x * f, rtol=1e-14)


def test_small_calls_teach_the_tuner_nothing(monkeypatch):
    monkeypatch.setattr(kernel, "_workers", lambda: 2)
    program = kernel.program(adcli.parse("sin(x)*x"), ("x",), 1)
    x = np.linspace(-3, 3, 100_000)
    for _ in range(12):
        program.run({"x": x}, x.size)
    tuner = program._tuners[2]
    assert tuner.best is None and not any(tuner.times.values())
