"""Fuzzing the whole command line: whatever the argv, adcli answers, and never crashes.

The README's contract ("Errors and exit codes") for *any* argv of any command:

* exit 0 (results; warnings only, on stderr), 2 (bad input or usage: a message on stderr,
  nothing on stdout) or 3 (``--strict`` and a nan/inf result); never 70, never a traceback;
* with ``--format json`` and exit 0, stdout is exactly one valid JSON object (nan and
  infinities as the strings "nan", "inf", "-inf") with the documented shape;
* control characters of the input are shown escaped: stderr holds no raw control character;
* numpy's RuntimeWarnings never leak (every run here turns warnings into errors);
* it finishes in time: a per-example Hypothesis deadline, plus a hard alarm against hangs.

Sources of argv: (1) random text, and random bytes decoded as the OS decodes argv (with
surrogateescape), as the expression or as the whole argv; random bytes as a --points file;
(2) soups of the language's tokens (numbers, names, every registered function, every
operator spelling including the Unicode ones and superscripts, parentheses, commas,
whitespace, junk); (3) valid random expression trees over every function of
``adcli.functions.CALLABLE`` and every operator, mutated by deleting, inserting or
replacing one token. Unmutated trees must succeed, agree with the Python API, and their
gradients and Hessians must agree with central finite differences of an independent
numpy evaluation wherever the function is smooth at the sampled point.

Example counts come from the environment, so CI stays quick and a long run is one line:

    pytest tests/test_fuzz.py                                   # CI: 200 examples per test
    ADCLI_FUZZ_EXAMPLES=100000 pytest tests/test_fuzz.py        # the long local run (~1 h)
    ADCLI_FUZZ_DEADLINE_MS=5000 ...                             # a slower machine

(Hypothesis prints the failing argv and a ``@reproduce_failure`` blob on a failure.)
"""
from __future__ import annotations

import math
import os
import unicodedata
import warnings
from datetime import timedelta

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

import adcli
import conftest
from conftest import nested_reverse, strict_json
from adcli.errors import AdcliWarning
from adcli.functions import CALLABLE, PRIMITIVES
from adcli.points import constant

EXAMPLES = int(os.environ.get("ADCLI_FUZZ_EXAMPLES", "200"))
DEADLINE = timedelta(milliseconds=int(os.environ.get("ADCLI_FUZZ_DEADLINE_MS", "2000")))
HANG_SECONDS = 60  # a hard stop for one run of main(): far beyond any deadline

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=DEADLINE,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much],
)

COMMANDS = ["grad", "eval", "hessian"]
OPTIONS = {"--help", "--at", "--grid", "--points", "--skip-bad-rows", "--format", "--digits",
           "--strict", "--wrt", "--order", "--debug", "--version"}


# ----- running the CLI ------------------------------------------------------------------

def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """main(argv) with stdio captured, stdin empty, warnings as errors, and a hard timeout."""
    return conftest.run_cli(*argv, timeout=HANG_SECONDS)


def _is_number(v) -> bool:
    return (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)) \
        or v in ("nan", "inf", "-inf")


def _raw_controls(text: str) -> list[str]:
    return [c for c in text if c != "\n" and unicodedata.category(c) == "Cc"]


def check_outcome(argv: list[str], code: int, out: str, err: str, *,
                  points: int | None = None) -> None:
    """The contract every run must keep, whatever argv was."""
    note(f"argv={argv!r}\nexit={code}\nstdout={out[:2000]!r}\nstderr={err[:2000]!r}")
    assert "Traceback (most recent call last)" not in err
    assert "adcli: internal error" not in err
    assert "RuntimeWarning" not in err
    assert code in (0, 2, 3), f"exit status {code}"
    assert not _raw_controls(err), "a control character reached stderr unescaped"
    if code == 2:
        assert err.strip(), "exit 2 needs a message"
        # Issue 11: a bad row of --points stops the run after the points before it, which
        # are written; any other exit 2 leaves stdout empty.
        assert out == "" or ("--points" in argv and "points file line" in err), \
            "exit 2 must leave stdout empty"
    if code == 3:
        assert "--strict" in argv
    if code != 0:
        return
    if _option_like(argv):
        return  # e.g. "--help" in the expression's place: help text, not a result
    for line in err.splitlines():
        assert line.startswith("adcli: warning: "), f"stray stderr line {line!r}"
    if _format(argv) == "json":
        _check_json(argv, strict_json(out), points)


def _option_like(argv) -> bool:
    before_separator = argv[: argv.index("--")] if "--" in argv else argv
    return any(a.split("=")[0] in OPTIONS for a in before_separator[1:2])


def _format(argv) -> str | None:
    before_separator = argv[: argv.index("--")] if "--" in argv else argv
    formats = [b for a, b in zip(before_separator, before_separator[1:]) if a == "--format"]
    return formats[-1] if formats else "table"


def _check_extra(point: dict, variables) -> None:
    """A points file's other columns come back as read, under "extra" (then taken out, so
    that the rest of the point has its command's shape)."""
    if "extra" in point:
        assert list(point)[:2] == ["at", "extra"]
        extra = point.pop("extra")
        assert extra and all(isinstance(k, str) and isinstance(v, str)
                             for k, v in extra.items())
        assert not set(extra) & set(variables)


def _check_json(argv, document, points) -> None:
    """The README's JSON shape, per command."""
    assert isinstance(document, dict)
    command = argv[0]
    variables = document["variables"]
    assert isinstance(variables, list) and all(isinstance(v, str) for v in variables)
    assert isinstance(document["points"], list)
    if points is not None:
        assert len(document["points"]) == points
    if command == "jacobian":
        k = len(document["expressions"])
        assert len(document["parsed"]) == k and all(isinstance(p, str) for p in document["parsed"])
        for point in document["points"]:
            assert all(_is_number(v) for v in point["at"].values())
            assert len(point["values"]) == k and all(_is_number(v) for v in point["values"])
            assert len(point["jacobian"]) == k
            assert all(len(row) == len(variables) and all(_is_number(v) for v in row)
                       for row in point["jacobian"])
        return
    assert isinstance(document["parsed"], str) and isinstance(document["expression"], str)
    order = int(argv[argv.index("--order") + 1]) if "--order" in argv else 1
    for point in document["points"]:
        assert all(_is_number(v) for v in point["at"].values())
        assert _is_number(point["value"])
        _check_extra(point, variables)
        if command == "eval":
            assert set(point) == {"at", "value"}
        elif command == "grad" and order > 1:
            assert set(point) == {"at", "value", "order", "derivative"}
            assert point["order"] == order and _is_number(point["derivative"])
        else:
            assert list(point["gradient"]) == variables
            assert all(_is_number(v) for v in point["gradient"].values())
            if command == "hessian":
                h = point["hessian"]
                assert len(h) == len(variables) and all(len(r) == len(variables) for r in h)
                assert all(_is_number(v) for row in h for v in row)


# ----- argv around an expression --------------------------------------------------------

NAMES = ["x", "y", "z", "θ", "x1", "x_2"]
AT_VALUES = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.integers(-5, 5).map(str),
    st.sampled_from(["pi/4", "-1/3", "sqrt(2)", "1e999", "-1e999", "0", "-0.0", "1e-320",
                     "atan2(1,2)", "2pi", "−1", "e", "inf", "-Infinity", "nan"]),
)
# A grid's ends must be finite (0:1e999:3 is an error, said elsewhere).
GRID_ENDS = AT_VALUES.filter(lambda v: math.isfinite(constant(v)))


@st.composite
def argv_for(draw, expression, names=None, commands=COMMANDS):
    """[command, expression, --at/--grid values for the names, some other options].

    Returns (argv, how many points a success must report, whether argv is "clean":
    exactly the expression's names get values, and every option is well formed)."""
    command = draw(st.sampled_from(commands))
    wanted = list(NAMES if names is None else names)
    given_names = list(wanted)
    if given_names and draw(st.booleans()):                                  # some missing
        given_names = draw(st.permutations(given_names))[: draw(st.integers(0, len(given_names)))]
    if draw(st.integers(0, 9)) == 0:                                         # an extra one
        given_names.append(draw(st.sampled_from(["w", "pi", "xx", "X"])))
    clean = sorted(given_names) == sorted(wanted)
    grid_name = draw(st.sampled_from(given_names)) if given_names and draw(st.booleans()) else None
    count = draw(st.integers(1, 4))
    options, pairs = [], []
    for name in given_names:
        if name == grid_name:
            start = draw(GRID_ENDS)   # (a count of 1 is one value: both ends it)
            stop = start if count == 1 else draw(GRID_ENDS)
            options += ["--grid", f"{name}={start}:{stop}:{count}"]
        else:
            pairs.append(f"{name}={draw(AT_VALUES)}")
    if pairs:
        if draw(st.booleans()):
            options += ["--at", ",".join(pairs)]
        else:
            for pair in pairs:
                options += ["--at", pair]
    options += ["--format", draw(st.sampled_from(["json"] * 6 + ["csv", "plain", "table"]))]
    if draw(st.integers(0, 4)) == 0:
        options.append("--strict")
    if draw(st.integers(0, 4)) == 0:
        options += ["--digits", str(draw(st.integers(1, 17)))]
    wrt = None
    if command != "eval" and draw(st.integers(0, 4)) == 0:
        wrt = draw(st.lists(st.sampled_from(NAMES + ["w"]), min_size=1, max_size=3, unique=True))
        options += ["--wrt", ",".join(wrt)]
        clean = clean and set(wrt) <= set(wanted)
    if command == "grad" and draw(st.integers(0, 5)) == 0:
        order = draw(st.integers(1, 3))
        options += ["--order", str(order)]
        # --order N > 1 differentiates in exactly one variable.
        clean = clean and (order == 1 or len(wrt if wrt is not None else wanted) == 1)
    if draw(st.integers(0, 9)) == 0:
        clean = False
        options += draw(st.sampled_from([["--at", draw(ARGV_TEXT)],
                                         ["--wrt", draw(ARGV_TEXT)],
                                         ["--grid", draw(ARGV_TEXT)],
                                         ["--digits", draw(ARGV_TEXT)],
                                         ["--order", draw(ARGV_TEXT)],
                                         ["--format"], ["--skip-bad-rows"]]))
    if draw(st.integers(0, 3)) == 0:
        argv = [command, *options, "--", expression]       # the expression after "--"
    else:
        argv = [command, expression, *options]
    return argv, (count if grid_name is not None else 1), clean


# ----- 1. random text and bytes ---------------------------------------------------------

ARGV_TEXT = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=60),
    # What the OS hands Python for arbitrary argv bytes.
    st.binary(max_size=60).map(lambda b: b.decode("utf-8", "surrogateescape")),
    st.binary(max_size=60).map(lambda b: b.decode("utf-8", "replace")),
)


@FUZZ
@given(st.data())
def test_random_text_as_expression(data):
    expression = data.draw(ARGV_TEXT, label="expression")
    argv, points, _ = data.draw(argv_for(expression, commands=COMMANDS + ["jacobian"]))
    code, out, err = run_cli(argv)
    check_outcome(argv, code, out, err, points=None if argv[0] == "jacobian" else points)


@FUZZ
@given(st.lists(ARGV_TEXT, max_size=8), st.sampled_from(COMMANDS + ["jacobian", ""]))
def test_random_argv(words, command):
    argv = ([command] if command else []) + words
    code, out, err = run_cli(argv)
    if "--help" in argv or "--version" in argv or not argv:   # help or version text
        assert code in (0, 2), err
        assert "Traceback (most recent call last)" not in err
        assert "adcli: internal error" not in err
        return
    check_outcome(argv, code, out, err)


# ----- 1b. random points files ---------------------------------------------------------

CELL = st.one_of(
    st.floats().map(repr), st.integers(-10, 10).map(str), st.sampled_from(
        ["", " ", "nan", "-inf", "1e999", "\u22121", "1_0", "0x1", "#", "# comment", '"1"',
         '"1,2"', '"', "\x00", "abc", "٣", "1 2", "\ufeff1"]),
    st.text(max_size=8),
)
HEADERS = ["x,y", "x", "y,x", "x,y,z", "x,,y", "x,x", "1x,y", " x , y ", "\ufeffx,y", "θ,x,y",
           "pi,x,y", "x;y", '"x","y"', ""]


@st.composite
def points_files(draw):
    """Bytes of a CSV points file: a header, then rows of numbers, junk and broken bytes."""
    lines = [draw(st.sampled_from(HEADERS) | st.text(max_size=10))]
    for _ in range(draw(st.integers(0, 12))):
        lines.append(",".join(draw(st.lists(CELL, min_size=0, max_size=4))))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    data = newline.join(lines).encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 4)) == 0:
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=4)) + data[at:]
    return data + (newline.encode() if draw(st.booleans()) else b"")


@FUZZ
@given(points_files(), st.sampled_from(COMMANDS), st.sampled_from(["json", "csv", "plain"]),
       st.booleans(), st.booleans(), st.sampled_from([[], ["--at", "y=2"], ["--grid", "y=0:1:2"]]))
def test_random_points_files(tmp_path_factory, data, command, fmt, skip, strict, extra):
    path = tmp_path_factory.getbasetemp() / "fuzz-points.csv"
    path.write_bytes(data)
    argv = [command, "x*y", "--points", str(path), "--format", fmt, *extra]
    argv += ["--skip-bad-rows"] * skip + ["--strict"] * strict
    code, out, err = run_cli(argv)
    check_outcome(argv, code, out, err)
    if code == 0 and fmt == "csv":
        assert out == "" or out.endswith("\n")


# ----- 2. token soups -------------------------------------------------------------------

NUMBER_TOKENS = ["0", "1", "2", "2.5", ".5", "1.", "007", "1e3", "1E-3", "2.5e+2", "1e999",
                 "1e-999", "9" * 400, "1e", "1e+", "..5", "1.2.3", "٣", "０", "²", "1_0", "0x10",
                 "½", "⅞", "2½", "⅟", "↉"]
NAME_TOKENS = ["x", "y", "z", "θ", "x1", "x_2", "xy", "_", "é", "ℵ", "Ⅷ", "pi", "e", "nan", "inf",
               "X", "sinx", "ﬁ", "x\u0301"]
FUNCTION_TOKENS = sorted(CALLABLE) + ["sinn", "eval", "exec", "__import__", "open", "os",
                                      "print", "lambda", "sin (", "log(", "pow(", "atan2 ("]
OPERATOR_TOKENS = ["+", "-", "*", "/", "^", "**", "\u2212", "\u00d7", "\u00b7", "\u22c5",
                   "\u00f7", "***", "//", "%", "^^", "--", "+-", "²", "³", "⁻¹", "⁺", "⁻", "⁰",
                   "¹⁰", "⁻⁻", "⁴⁵⁶⁷⁸⁹"]
PUNCTUATION_TOKENS = ["(", ")", "(", ")", ",", ",,", "()", ")("]
WHITESPACE_TOKENS = [" ", "  ", "\t", "\n", "\r", "\u00a0", "\u3000", "\u2028", "\x0b", "\x0c"]
JUNK_TOKENS = ["'", '"', ".", "=", "[", "]", "{", "}", "!", "@", "@-", "#", "$", "&", "|", "~",
               "`", ";", ":", "\\", "\x00", "\x1b", "\x1b[2J", "\x7f", "\x85", "\u200b", "\ufeff",
               "\u202e", "\udcff", "\udc80", "🙂", "⁺", "√", "π", "∞", "x.__class__", "__", "-x",
               "--", "--at", "--help"]
ALL_TOKENS = (NUMBER_TOKENS + NAME_TOKENS + FUNCTION_TOKENS + OPERATOR_TOKENS
              + PUNCTUATION_TOKENS + WHITESPACE_TOKENS + JUNK_TOKENS)
TOKEN = st.one_of(
    st.sampled_from(NUMBER_TOKENS), st.sampled_from(NAME_TOKENS),
    st.sampled_from(FUNCTION_TOKENS), st.sampled_from(OPERATOR_TOKENS),
    st.sampled_from(PUNCTUATION_TOKENS), st.sampled_from(WHITESPACE_TOKENS),
    st.sampled_from(JUNK_TOKENS),
)
SEPARATOR = st.sampled_from(["", "", "", " "])


@st.composite
def token_soup(draw):
    tokens = draw(st.lists(TOKEN, min_size=1, max_size=30))
    return "".join(t + draw(SEPARATOR) for t in tokens)


@FUZZ
@given(st.data())
def test_token_soup(data):
    expression = data.draw(token_soup(), label="expression")
    argv, points, _ = data.draw(argv_for(expression, commands=COMMANDS + ["jacobian"]))
    code, out, err = run_cli(argv)
    check_outcome(argv, code, out, err, points=None if argv[0] == "jacobian" else points)


# ----- 3. valid expression trees, and one-token mutations of them -----------------------
#
# A tree is a tuple: ("num", text, value) | ("var", name) | ("const", name)
# | ("call", name, args) | ("bin", op, a, b) | ("neg", sign, a) | ("sup", a, text, value)
# | ("imp", a, b) | ("group", a).
# Tokens are generated with every compound operand in parentheses, so the parse is
# unambiguous and the independent evaluator below reads the tree the same way.

BINARY = {"+": np.add, "-": np.subtract, "\u2212": np.subtract,
          "*": np.multiply, "\u00d7": np.multiply, "\u00b7": np.multiply, "\u22c5": np.multiply,
          "/": np.divide, "\u00f7": np.divide, "^": np.power, "**": np.power}
SIGNS = {"-": -1.0, "\u2212": -1.0, "+": 1.0}
SUPERSCRIPTS = [("²", 2.0), ("³", 3.0), ("⁻¹", -1.0), ("⁰", 0.0), ("¹⁰", 10.0), ("⁺²", 2.0),
                ("⁻²", -2.0), ("¹", 1.0)]
NUMBERS = [("2", 2.0), ("3", 3.0), ("0.5", 0.5), (".5", 0.5), ("1.5", 1.5), ("1e-1", 0.1),
           ("2.5E+0", 2.5), ("10", 10.0), ("1.", 1.0), ("0.25", 0.25)]
VARIABLES = ["x", "y", "θ"]
CONSTANTS = {"pi": math.pi, "e": math.e}


def _sigmoid(x):
    # exp(-softplus(-x)): accurate to a few ulps in both tails (0.5(1 + tanh(x/2)) is not).
    return np.exp(-np.logaddexp(0.0, -x))


# An evaluator independent of adcli.functions: plain numpy, written from the README's list.
REFERENCE = {
    "exp": np.exp, "log": np.log, "ln": np.log, "log10": np.log10, "log2": np.log2,
    "log1p": np.log1p, "expm1": np.expm1, "sqrt": np.sqrt, "cbrt": np.cbrt,
    "sin": np.sin, "cos": np.cos, "tan": np.tan,
    "sec": lambda x: 1.0 / np.cos(x), "csc": lambda x: 1.0 / np.sin(x),
    "cot": lambda x: 1.0 / np.tan(x),
    "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
    "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh,
    "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh,
    "arcsin": np.arcsin, "arccos": np.arccos, "arctan": np.arctan,
    "arsinh": np.arcsinh, "arcosh": np.arccosh, "artanh": np.arctanh,
    "arcsinh": np.arcsinh, "arccosh": np.arccosh, "arctanh": np.arctanh,
    "tg": np.tan, "ctg": lambda x: 1.0 / np.tan(x), "cotg": lambda x: 1.0 / np.tan(x),
    "cotan": lambda x: 1.0 / np.tan(x), "cosec": lambda x: 1.0 / np.sin(x),
    "arctg": np.arctan, "arcsec": lambda x: np.arccos(1.0 / x),
    "arccsc": lambda x: np.arcsin(1.0 / x),
    "arccot": lambda x: np.arctan(1.0 / x), "arcctg": lambda x: np.arctan(1.0 / x),
    "sech": lambda x: 1.0 / np.cosh(x), "csch": lambda x: 1.0 / np.sinh(x),
    "coth": lambda x: 1.0 / np.tanh(x), "asec": lambda x: np.arccos(1.0 / x),
    "acsc": lambda x: np.arcsin(1.0 / x), "acot": lambda x: np.arctan(1.0 / x),
    "abs": np.abs, "sign": np.sign, "sgn": np.sign, "sigmoid": _sigmoid, "softplus": lambda x: np.logaddexp(0.0, x),
    "pow": np.power, "atan2": np.arctan2, "hypot": np.hypot,
    "min": np.minimum, "max": np.maximum,
}


def test_every_registered_function_has_a_reference_and_an_arity_the_fuzzer_knows():
    # The fuzzers draw from CALLABLE: a new function must come with an independent reference.
    assert set(CALLABLE) <= set(REFERENCE), set(CALLABLE) - set(REFERENCE)
    assert {"add", "sub", "mul", "div", "pow", "neg"} <= set(PRIMITIVES)
    for name, function in CALLABLE.items():
        assert function.arity in (1, 2), name


def _domain_guard(name: str, index: int):
    """(centre, radius) that keeps an argument inside the function's sampling domain."""
    domain = getattr(CALLABLE[name], "domain", None) or ()
    lo, hi = domain[index] if index < len(domain) else (-3.0, 3.0)
    return (lo + hi) / 2, 0.45 * (hi - lo)


@st.composite
def trees(draw, depth=4, guard=False):
    """Random valid trees over every function in the registry and every operator."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        kind = draw(st.sampled_from(["num", "var", "var", "var", "const"]))
        if kind == "num":
            return ("num", *draw(st.sampled_from(NUMBERS)))
        if kind == "var":
            return ("var", draw(st.sampled_from(VARIABLES)))
        return ("const", draw(st.sampled_from(sorted(CONSTANTS))))
    kind = draw(st.sampled_from(["call"] * 4 + ["bin"] * 3 + ["neg", "imp", "sup"]))
    if kind == "call":
        return draw(calls(depth, guard))
    if kind == "bin":
        op = draw(st.sampled_from(sorted(BINARY)))
        a, b = draw(trees(depth=depth - 1, guard=guard)), draw(trees(depth=depth - 1, guard=guard))
        if guard and BINARY[op] is np.power:
            a = ("call", "exp", [("call", "sin", [a])])                # a positive base
        if guard and BINARY[op] is np.divide:
            b = ("bin", "+", ("num", "2", 2.0), ("call", "sin", [b]))  # away from 0
        return ("bin", op, a, b)
    if kind == "neg":
        sign = draw(st.sampled_from(sorted(SIGNS)))
        return ("neg", sign, draw(trees(depth=depth - 1, guard=guard)))
    if kind == "sup":                                        # x², (x+1)⁻¹
        base = draw(trees(depth=depth - 1, guard=guard))
        if guard:
            base = ("call", "exp", [("call", "sin", [base])])  # a positive base
        return ("sup", base, *draw(st.sampled_from(SUPERSCRIPTS)))
    # Implicit multiplication: a number or a group in front of a name, a call or a group:
    # 2x, 2 sin(x), 2pi, 2(x+1), (1/2)x, (x+1)(x-1).
    left = ("num", *draw(st.sampled_from(NUMBERS))) if draw(st.booleans()) \
        else ("group", draw(trees(depth=depth - 1, guard=guard)))
    right = draw(st.sampled_from(["var", "const", "call", "group"]))
    if right == "var":
        right = ("var", draw(st.sampled_from(VARIABLES)))
    elif right == "const":
        right = ("const", draw(st.sampled_from(sorted(CONSTANTS))))
    elif right == "call":
        right = draw(calls(depth, guard))
    else:
        right = ("group", draw(trees(depth=depth - 1, guard=guard)))
    return ("imp", left, right)


@st.composite
def calls(draw, depth, guard):
    name = draw(st.sampled_from(sorted(CALLABLE)))
    args = []
    for i in range(CALLABLE[name].arity):
        arg = draw(trees(depth=depth - 1, guard=guard))
        if guard and draw(st.integers(0, 3)) > 0:
            # centre + radius*sin(arg): a smooth way to land inside the domain.
            centre, radius = _domain_guard(name, i)
            arg = ("bin", "+", ("num", repr(centre), centre),
                   ("bin", "*", ("num", repr(radius), radius), ("call", "sin", [arg])))
        args.append(arg)
    return ("call", name, args)


def tokens_of(tree) -> list[str]:
    kind = tree[0]
    if kind == "num":
        return [tree[1]]
    if kind in ("var", "const"):
        return [tree[1]]
    if kind == "call":
        tokens = [tree[1], "("]
        for i, arg in enumerate(tree[2]):
            tokens += ([","] if i else []) + tokens_of(arg)
        return tokens + [")"]
    if kind == "bin":
        return _operand(tree[2]) + [tree[1]] + _operand(tree[3])
    if kind == "neg":
        return [tree[1]] + _operand(tree[2])
    if kind == "sup":
        return _operand(tree[1]) + [tree[2]]
    if kind == "group":
        return ["("] + tokens_of(tree[1]) + [")"]
    if tree[1][0] == "num" and tree[2] == ("const", "e"):
        return tokens_of(tree[1]) + [" e"]                    # 2 e: "2e" is an error
    return tokens_of(tree[1]) + tokens_of(tree[2])           # imp: 2x, (a)x, (a)(b)


def _operand(tree) -> list[str]:
    compound = tree[0] in ("bin", "neg", "imp", "sup")
    return ["("] + tokens_of(tree) + [")"] if compound else tokens_of(tree)


def text_of(tokens: list[str], spaces: list[bool] | None = None) -> str:
    spaces = spaces or [False] * len(tokens)
    return "".join(t + (" " if s else "") for t, s in zip(tokens, spaces))


def variables_of(tree) -> list[str]:
    found, stack = [], [tree]
    while stack:
        t = stack.pop()
        if t[0] == "var":
            found.append(t[1])
        elif t[0] == "call":
            stack.extend(reversed(t[2]))
        elif t[0] == "bin":
            stack.extend([t[3], t[2]])
        elif t[0] in ("neg", "group"):
            stack.append(t[-1])
        elif t[0] == "sup":
            stack.append(t[1])
        elif t[0] == "imp":
            stack.extend([t[2], t[1]])
    return list(dict.fromkeys(found))


@st.composite
def mutated(draw, tokens: list[str]):
    """One token deleted, inserted or replaced (or none: the valid expression itself)."""
    how = draw(st.sampled_from(["none", "delete", "insert", "replace", "replace"]))
    tokens = list(tokens)
    if how == "delete" and len(tokens) > 1:
        del tokens[draw(st.integers(0, len(tokens) - 1))]
    elif how == "insert":
        tokens.insert(draw(st.integers(0, len(tokens))), draw(TOKEN))
    elif how == "replace":
        tokens[draw(st.integers(0, len(tokens) - 1))] = draw(TOKEN)
    else:
        how = "none"
    return how, tokens


@FUZZ
@given(st.data())
def test_valid_trees_mutated_by_one_token(data):
    tree = data.draw(trees(), label="tree")
    how, tokens = data.draw(mutated(tokens_of(tree)), label="mutation")
    spaces = data.draw(st.lists(st.integers(0, 3).map(lambda n: n == 0),
                                min_size=len(tokens), max_size=len(tokens)))
    expression = text_of(tokens, spaces)
    names = variables_of(tree)
    argv, points, clean = data.draw(argv_for(expression, names=names))
    code, out, err = run_cli(argv)
    check_outcome(argv, code, out, err, points=points)
    if how == "none" and clean:
        # A valid expression with exactly its values given must give results.
        assert code == 0 or (code == 3 and "--strict" in argv), err


@FUZZ
@given(st.data())
def test_valid_trees_through_the_cli_match_the_python_api(data):
    tree = data.draw(trees(), label="tree")
    expression = text_of(tokens_of(tree))
    names = variables_of(tree)
    values = {n: data.draw(st.floats(-3, 3), label=n) for n in names}
    command = data.draw(st.sampled_from(COMMANDS))
    at = ",".join(f"{n}={v!r}" for n, v in values.items())
    argv = [command, expression, "--format", "json"] + (["--at", at] if at else [])
    code, out, err = run_cli(argv)
    check_outcome(argv, code, out, err, points=1)
    assert code == 0, err
    point = strict_json(out)["points"][0]
    f = adcli.parse(expression)
    # The CLI evaluates arrays of points: so does this, since numpy's vectorised power
    # (and others) may round differently from its 0-d path, by an ulp or two.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        expected = f.derivatives({n: np.array([v]) for n, v in values.items()},
                                 order={"eval": 0, "grad": 1, "hessian": 2}[command])
    assert _same(point["value"], float(np.ravel(expected.value)[0]))
    if command != "eval":
        assert all(_same(point["gradient"][n], float(np.ravel(expected.gradient[n])[0]))
                   for n in names)
    if command == "hessian" and names:
        hessian = np.reshape(expected.hessian, (-1, len(names), len(names)))[0]
        assert all(_same(point["hessian"][i][j], float(hessian[i, j]))
                   for i in range(len(names)) for j in range(len(names)))


def _same(json_number, value: float) -> bool:
    if isinstance(json_number, str):
        return json_number == ("nan" if math.isnan(value) else "inf" if value > 0 else "-inf")
    return json_number == value


# ----- agreement with central finite differences ----------------------------------------

MARGIN = 1e-2     # how far every intermediate stays from a kink, pole or domain edge
LIMIT = 1e6       # and how large it may get: beyond, differences are ill-conditioned


class Unsmooth(Exception):
    pass


def reference(tree, point: dict[str, float]) -> float:
    """Evaluate the tree with plain numpy; raise Unsmooth near any kink, pole or edge."""
    kind = tree[0]
    if kind == "num":
        return tree[2]
    if kind == "var":
        return point[tree[1]]
    if kind == "const":
        return CONSTANTS[tree[1]]
    if kind == "group":
        return reference(tree[1], point)
    if kind == "imp":
        return _checked(reference(tree[1], point) * reference(tree[2], point))
    if kind == "neg":
        return _checked(SIGNS[tree[1]] * reference(tree[2], point))
    if kind == "sup":
        base = reference(tree[1], point)
        _power(base, tree[3], ("num", tree[2], tree[3]))
        return _checked(np.power(np.float64(base), tree[3]))
    if kind == "bin":
        a, b = reference(tree[2], point), reference(tree[3], point)
        function = BINARY[tree[1]]
        if function is np.divide:
            _away(abs(b))
            _BRANCHES.append(b > 0)
        if function is np.power:
            _power(a, b, tree[3])
        return _checked(function(np.float64(a), np.float64(b)))
    name, args = tree[1], [reference(a, point) for a in tree[2]]
    _smooth_call(name, args)
    if name == "pow":
        _power(args[0], args[1], tree[2][1])
    return _checked(REFERENCE[name](*map(np.float64, args)))


def _away(distance: float) -> None:
    if not distance > MARGIN:
        raise Unsmooth


def _power(a: float, b: float, exponent_tree) -> None:
    _away(abs(a))
    if variables_of(exponent_tree) or not float(b).is_integer():
        _away(a)  # a^b with a varying exponent or a fractional power needs a > 0


def _smooth_call(name: str, args: list[float]) -> None:
    """Raise Unsmooth near a kink, pole or edge; note which side of each one we are on.
    Each function's class says where those are (``kink``, ``side``), so this list never
    names functions."""
    cls = CALLABLE[name]
    _away(float(cls.kink(*args)))
    side = cls.side(*args)
    if side is not None:
        _BRANCHES.append(side)


_SIZES: list[float] = []    # |every intermediate| of the latest reference evaluation
_BRANCHES: list = []        # the side of every kink and pole it passed


def _checked(value) -> float:
    value = float(value)
    if not (math.isfinite(value) and abs(value) < LIMIT):
        raise Unsmooth
    _SIZES.append(abs(value))
    return value


def _smooth_value(tree, point, branches=None) -> tuple[float, float, tuple]:
    """The reference value, the largest intermediate (the scale of rounding errors), and
    the side of every kink and pole. With ``branches``, a point on another side of one
    (a kink crossed between two points of a difference stencil) is skipped."""
    _SIZES.clear()
    _BRANCHES.clear()
    try:
        with np.errstate(all="ignore"):
            value = reference(tree, point)
    except Unsmooth:
        assume(False)
    sides = tuple(_BRANCHES)
    assume(branches is None or sides == branches)
    return value, max(_SIZES, default=abs(value)), sides


EPS = 2.0 ** -52
COORDINATE = st.floats(-2.5, 2.5).map(lambda v: round(v, 4))


def central_difference(f, point: dict[str, float], name: str, h: float):
    """Fourth-order central difference of f in one variable, and a bound on its rounding
    error. f returns (value, size): size is the largest intermediate of the computation,
    since cancellation leaves errors of that size, not of the value's."""
    values, sizes = zip(*(f({**point, name: point[name] + k * h}) for k in (-2, -1, 1, 2)))
    estimate = (values[0] - 8 * values[1] + 8 * values[2] - values[3]) / (12 * h)
    noise = 1000 * EPS * max(sizes) / h
    return estimate, noise


def compare_with_differences(f, point, name, h, ad, what):
    """Differences at h and h/2 must agree (else a kink, a pole or too coarse a step is
    near: skip the point); AD must then agree with the finer one."""
    (coarse, noise_coarse), (fine, noise_fine) = (central_difference(f, point, name, s)
                                                  for s in (h, h / 2))
    disagreement = abs(coarse - fine)          # ~15x the truncation error of the finer one
    assume(disagreement <= 1e-4 * abs(fine) + noise_coarse + noise_fine)
    tolerance = 1e-6 * abs(fine) + 2 * noise_fine + disagreement
    assert abs(ad - fine) <= tolerance, \
        f"{what}: AD {ad!r}, differences {fine!r} (±{tolerance:.3g})"
    return fine


@FUZZ
@given(st.data())
def test_gradients_and_hessians_agree_with_central_differences(data):
    tree = data.draw(trees(guard=True), label="tree")
    names = variables_of(tree)
    assume(names)
    # Coordinates on a 1e-4 grid: 0 is in, 1e-166 is not (exp(sin(x*1e-166)) rounds to 1,
    # so log of it, and a^b's derivative in b, lose every digit near such a point).
    point = {n: data.draw(COORDINATE, label=n) for n in names}
    f0, size, branches = _smooth_value(tree, point)
    expression = adcli.parse(text_of(tokens_of(tree)))
    note(f"expression: {expression.text}\nparsed: {expression.parsed}")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = expression.derivatives(point, order=2)

    def value(p):
        return _smooth_value(tree, p, branches)[:2]

    def partial(name):
        def g(p):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                # (a number cancelled to rounding is said so, rightly: y cos(acos 0) at
                # y = 0 is 6e-17 y; it is checked against differences to their floor)
                warnings.filterwarnings("ignore", ".*rounding errors grew", AdcliWarning)
                # (and a neighbour may underflow where the point does not, rightly said:
                # tanh(exp(exp(sin(x/2))^-2)) near -2.19, d/dx -2.6e-321 shown as -0)
                warnings.filterwarnings("ignore", ".*overflowed or underflowed", AdcliWarning)
                gradient = {n: float(v) for n, v in expression.grad(**p).items()}
            size = max(max(map(abs, gradient.values())), _smooth_value(tree, p, branches)[1])
            return gradient[name], size
        return g

    steps = {n: 1e-3 * max(1.0, abs(point[n])) for n in names}
    slopes = {n: compare_with_differences(value, point, n, steps[n],
                                          float(result.gradient[n]), f"d/d{n}")
              for n in names}
    # The value, to a tolerance that allows for the condition of the function and for
    # rounding in its largest intermediate (log(sigmoid(17.7)) keeps only 8 digits).
    spread = sum(abs(slopes[n]) * max(1.0, abs(point[n])) for n in names)
    assert math.isclose(float(result.value), f0, rel_tol=1e-9,
                        abs_tol=1e-9 * spread + 1e4 * EPS * size)

    # The Hessian (double backprop) against differences of the (checked) gradient:
    # d/d other of df/d name is H[j][i], Leibniz's d2f/d other d name.
    for i, name in enumerate(names):
        for j, other in enumerate(names):
            compare_with_differences(partial(name), point, other, steps[other],
                                     float(result.hessian[j, i]), f"d2/d{other} d{name}")


@pytest.mark.filterwarnings("ignore::adcli.errors.AdcliWarning")  # (kinks, edges: said)
@FUZZ
@given(st.data())
def test_taylor_mode_at_several_points_agrees_with_nested_reverse_passes(data):
    # Numbers beside variables at several points (2^x over a file) once broke Taylor
    # mode's broadcasting with an internal error that one-point tests never reached.
    tree = data.draw(trees(guard=True), label="tree")
    names = variables_of(tree)
    assume(names)
    points = {n: np.array(data.draw(st.lists(COORDINATE, min_size=3, max_size=3), label=n))
              for n in names}
    name, order = data.draw(st.sampled_from(names)), data.draw(st.integers(2, 3))
    expression = adcli.parse(text_of(tokens_of(tree)))
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        nested = nested_reverse(expression, points, name, order)
        taylor = expression.nth_derivative(name, order, **points).derivative
    assert taylor.shape == nested.shape == (3,)
    # Where f itself is nan (acos(2)*x), every derivative is: the nested passes' 0 for
    # the derivative of a constant nan is not a reference. Near the top of the float range
    # (a second derivative of 2e274) a product of series rows can overflow on the way.
    fine = np.isfinite(nested) & np.isfinite(expression.value(**points)) & \
        (np.abs(nested) < 1e250)
    scale = np.max(np.abs(nested[fine]), initial=1.0)
    # An absolute floor on that scale: random trees cancel terms, and the two methods round
    # the cancelled terms differently, so a tiny entry is checked only to the floor.
    assert np.allclose(taylor[fine], nested[fine], rtol=1e-7, atol=1e-9 * scale), \
        (expression.text, name, order, taylor, nested)

def test_the_tree_strategy_reaches_every_function_and_operator():
    """A guard against the generator silently narrowing: sample it and look."""
    seen = set()

    @settings(max_examples=1000, deadline=None, database=None, derandomize=True)
    @given(trees())
    def collect(tree):
        stack = [tree]
        while stack:
            t = stack.pop()
            if t[0] == "call":
                seen.add(t[1])
                stack.extend(t[2])
            elif t[0] == "bin":
                seen.add(t[1])
                stack.extend(t[2:])
            elif t[0] in ("neg", "group"):
                seen.add("neg" + t[1] if t[0] == "neg" else "group")
                stack.append(t[-1])
            elif t[0] == "sup":
                seen.add(t[2])
                stack.append(t[1])
            elif t[0] == "imp":
                seen.add(("imp", t[1][0], t[2][0]))
                stack.extend(t[1:])

    collect()
    implicit = {("imp", a, b) for a in ("num", "group") for b in ("var", "const", "call", "group")}
    signs = {"neg" + s for s in SIGNS}
    missing = (set(CALLABLE) | set(BINARY) | {s for s, _ in SUPERSCRIPTS} | implicit | signs) - seen
    assert not missing, f"never generated: {sorted(missing)}"


@settings(FUZZ, max_examples=max(10, EXAMPLES // 10))
@given(st.data())
def test_check_of_a_wrong_derivation_never_fails_inside(data):
    # check's diagnoses try many claims on f's nodes (terms, chain factors, powers, a sum's
    # terms one by one): with any f and any expectation, check gives a verdict or an
    # AdcliError, never an internal error, and every diagnosis is one line of words.
    f = data.draw(trees(depth=3, guard=True), label="f")
    names = variables_of(f)
    assume(names)
    name = names[0]
    g = data.draw(trees(depth=3, guard=True), label="expectation")
    assume(set(variables_of(g)) <= set(names))
    f_text, g_text = text_of(tokens_of(f)), text_of(tokens_of(g))
    order = data.draw(st.integers(1, 2), label="order")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = adcli.check(f_text, g_text, wrt=name, order=order, samples=8)
        except adcli.AdcliError:
            return
    assert result.verdict in ("matches", "differs", "cannot tell")
    assert all(isinstance(d, str) and d and "\n" not in d for d in result.diagnosis)
