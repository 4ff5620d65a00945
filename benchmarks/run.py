"""Every figure of issue 12's speed table, each beside its reference measured in the same run.

    python benchmarks/run.py            # everything (~5 min on 2 busy cores)
    python benchmarks/run.py --quick    # smaller sizes and fewer repeats (~1 min; CI runs it)
    python benchmarks/run.py --only bulk huge

Run it with the interpreter adcli is installed in (its ``adcli`` entry point is used for
the command-line rows). Timings are medians of runs taken in turn with their reference
(round robin), and a ratio is the median of the per-round ratios, so a burst of load from
elsewhere hits both sides alike. Every result is checked against its reference before
it is timed. jax, torch and autograd rows appear only when those happen to be installed.

Sections (issue 12's goals):
  startup  ``adcli grad ... --format json`` and the table, against ``python -c "import numpy"``
  bulk     value and gradient at N points (10^6; --quick 10^5) of E1, E2 and E3 through the
           API (all cores and one), the tape it replaces, value()+grad() called separately,
           and a naive hand-written numpy value and gradient
  huge     the CLI on K = 10^4 terms, 100,000-deep nesting and a 1 MB expression: wall time,
           peak memory, and the parse/evaluate split measured in process
  taylor   grad --order 8 at 10^4 points and order 20 at one point (Taylor mode), against
           nested reverse passes
  csv      a 10^6-row points file through ``--points ... --format csv``, against a
           numpy-only read and write of the same file (same output bytes, checked first),
           and adcli's peak memory at 10^6 rows against 10^5 (flat: at most 1.25x)
"""
from __future__ import annotations

import argparse
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

from _common import adcli_executable, source_state  # noqa: E402 (run as a script)
from bench_cli_points import REFERENCE as CSV_REFERENCE, run as run_child, write_points

import adcli
from adcli import kernel

ROWS: list[tuple] = []  # (section, figure, adcli, reference, ratio text, goal, verdict)
JUDGED = [True]         # --quick measures below the goals' sizes: nothing is judged


def row(section, figure, measured, reference="", ratio=None, goal=None, unit="x"):
    """Print and keep one line of the final table. ``goal`` is an upper bound on ``ratio``
    (or on ``measured`` when there is no ratio)."""
    verdict = "-" if goal is None or ratio is None or not JUDGED[0] else \
        ("MET" if ratio <= goal else "MISSED")
    ratio_text = "" if ratio is None else (f"{ratio:.2f}{unit}")
    goal_text = "" if goal is None else f"<= {goal:g}{unit}"
    ROWS.append((section, figure, measured, reference, ratio_text, goal_text, verdict))
    print(f"  {figure:<46} {measured:>14} {reference:>16} {ratio_text:>8} {goal_text:>9} "
          f"{verdict:>6}", flush=True)


def seconds(s: float) -> str:
    return f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s"


def rounds(functions: dict, repeats: int, warm: bool = True) -> dict[str, list[float]]:
    """Seconds of each function, run in turn, ``repeats`` rounds (after a warm-up round)."""
    if warm:
        for f in functions.values():
            f()
    times = {name: [] for name in functions}
    for _ in range(repeats):
        for name, f in functions.items():
            gc.collect()
            start = time.perf_counter()
            f()
            times[name].append(time.perf_counter() - start)
    return times


def ratio(times, a: str, b: str) -> float:
    return statistics.median(x / y for x, y in zip(times[a], times[b]))


# ----- start-up ----------------------------------------------------------------------------

def startup(options) -> None:
    print("\n== start-up: fresh processes, median wall time (goal: issue 12, goal 1) ==")
    exe = adcli_executable()
    commands = {
        "import numpy": [sys.executable, "-c", "import numpy"],
        "json": [exe, "grad", "exp(x^2)^2", "--at", "x=0.5", "--format", "json"],
        "table": [exe, "grad", "exp(x^2)^2", "--at", "x=0.5"],
    }
    with tempfile.TemporaryDirectory(prefix="adcli-pyc-") as cache:
        env = {**os.environ, "PYTHONPYCACHEPREFIX": cache, "COLUMNS": "100"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)   # an installed package has its .pyc

        def once(argv):
            return lambda: subprocess.run(argv, env=env, capture_output=True, check=True)
        times = rounds({name: once(argv) for name, argv in commands.items()},
                       options.startup_runs)
    base = statistics.median(times["import numpy"])
    row("startup", 'python -c "import numpy" (reference)', seconds(base))
    for name, goal in (("json", 1.2), ("table", 1.35)):
        row("startup", f"adcli grad ... --format {name}" if name == "json" else
            "adcli grad ... (table)", seconds(statistics.median(times[name])),
            seconds(base), ratio(times, name, "import numpy"), goal)


# ----- value and gradient at many points ------------------------------------------------------

E3 = ("exp(sin(x)*y)/(1 + z^2) + log(1 + x^2 + y^2)*cos(z*y) - tanh(x*y - z)*sqrt(x^2 + z^2 + 1)"
      " + (x + 2)^1.5/(y + cos(x)^2) + sin(x*z)^3*exp(-y/z)")


def e1(x):
    e = np.exp(x * x)
    f = e * e
    return f, {"x": 4.0 * x * f}


def e2(x1, x2):
    return np.sin(x1) + x1 * x2, {"x1": np.cos(x1) + x2, "x2": x1.copy()}


def e3(x, y, z):
    """E3 and its partials, each written out by hand from the rules of calculus."""
    f = (np.exp(np.sin(x) * y) / (1 + z**2) + np.log(1 + x**2 + y**2) * np.cos(z * y)
         - np.tanh(x * y - z) * np.sqrt(x**2 + z**2 + 1) + (x + 2)**1.5 / (y + np.cos(x)**2)
         + np.sin(x * z)**3 * np.exp(-y / z))
    dx = (np.exp(np.sin(x) * y) * np.cos(x) * y / (1 + z**2)
          + 2 * x / (1 + x**2 + y**2) * np.cos(z * y)
          - (1 - np.tanh(x * y - z)**2) * y * np.sqrt(x**2 + z**2 + 1)
          - np.tanh(x * y - z) * x / np.sqrt(x**2 + z**2 + 1)
          + 1.5 * (x + 2)**0.5 / (y + np.cos(x)**2)
          + (x + 2)**1.5 * 2 * np.cos(x) * np.sin(x) / (y + np.cos(x)**2)**2
          + 3 * np.sin(x * z)**2 * np.cos(x * z) * z * np.exp(-y / z))
    dy = (np.exp(np.sin(x) * y) * np.sin(x) / (1 + z**2)
          + 2 * y / (1 + x**2 + y**2) * np.cos(z * y)
          - np.log(1 + x**2 + y**2) * np.sin(z * y) * z
          - (1 - np.tanh(x * y - z)**2) * x * np.sqrt(x**2 + z**2 + 1)
          - (x + 2)**1.5 / (y + np.cos(x)**2)**2
          - np.sin(x * z)**3 * np.exp(-y / z) / z)
    dz = (-np.exp(np.sin(x) * y) * 2 * z / (1 + z**2)**2
          - np.log(1 + x**2 + y**2) * np.sin(z * y) * y
          + (1 - np.tanh(x * y - z)**2) * np.sqrt(x**2 + z**2 + 1)
          - np.tanh(x * y - z) * z / np.sqrt(x**2 + z**2 + 1)
          + 3 * np.sin(x * z)**2 * np.cos(x * z) * x * np.exp(-y / z)
          + np.sin(x * z)**3 * np.exp(-y / z) * y / z**2)
    return f, {"x": dx, "y": dy, "z": dz}


CASES = [("E1", "exp(x^2)^2", e1, 1.0, (-1.0, 1.0)),
         ("E2", "sin(x1)+x1*x2", e2, 1.05, (-1.0, 1.0)),
         ("E3", E3, e3, 0.30, (0.5, 1.5))]


def check(got, want, what: str) -> None:
    value, grads = got
    pairs = [(value, want[0])] + [(grads[k], want[1][k]) for k in want[1]]
    for a, b in pairs:
        if not np.allclose(a, b, rtol=1e-9, atol=1e-12):
            sys.exit(f"{what}: adcli and the reference disagree "
                     f"(max difference {np.max(np.abs(a - b)):.3g})")


def one_thread():
    """Run the kernel on one core only (for the single-threaded rows)."""
    class Pinned:
        def __enter__(self):
            self.saved = kernel._workers
            kernel._workers = lambda: 1

        def __exit__(self, *exc):
            kernel._workers = self.saved
    return Pinned()


def tape_only():
    class Tape:
        def __enter__(self):
            self.saved = kernel.evaluate
            kernel.evaluate = lambda *args, **kwargs: None

        def __exit__(self, *exc):
            kernel.evaluate = self.saved
    return Tape()


def steady_malloc() -> str:
    """Keep freed memory in glibc's heap (no trimming, no mmap per big array), so neither
    side pays page faults that depend on what ran before it: the naive reference took
    2.8 ms or 6.4 ms on E1 in the same run, depending on what it followed."""
    import ctypes

    trim_threshold, mmap_threshold = -1, -3  # glibc's M_TRIM_THRESHOLD, M_MMAP_THRESHOLD
    try:
        libc = ctypes.CDLL("libc.so.6")
        ok = all(libc.mallopt(option, 1 << 30) == 1
                 for option in (trim_threshold, mmap_threshold))
    except (OSError, AttributeError):
        ok = False
    return "malloc kept steady (no page faults from reuse)" if ok else \
        "malloc as is (not glibc): references may pay page faults"


def bulk(options) -> None:
    n = options.points
    cores = kernel._workers()
    print(f"\n== value and gradient at {n:.0e} points, in process (issue 12, goals 2 and 6); "
          f"{cores} cores ==")
    control()
    # The peers first: the steady malloc below made torch 10-30x slower.
    for name, text, reference, _, span in CASES:
        peers(name, text, reference, _points(text, n, span), options)
        gc.collect()
    print(f"  adcli, with {steady_malloc()}")
    for name, text, reference, goal, span in CASES:
        expression = adcli.parse(text)
        at = _points(text, n, span)
        check(expression.value_and_grad(**at), reference(**at), name)

        def single():
            with one_thread():
                return expression.value_and_grad(**at)

        def tape():
            with tape_only():
                return expression.value_and_grad(**at)
        check(tape(), reference(**at), f"{name} (tape)")
        functions = {"ref": lambda: reference(**at),
                     "api": lambda: expression.value_and_grad(**at),
                     "one": single,
                     "apart": lambda: (expression.value(**at), expression.grad(**at))}
        for _ in range(3 * kernel.TUNE_ROUNDS):  # the kernel times its block sizes on
            single()                             # its first big calls (kernel._Tuner):
            functions["api"]()                   # the rows are of the calls after those
        times = rounds(functions, options.repeats)
        ref = statistics.median(times["ref"])
        label = f"{name} {text if len(text) < 20 else '(40 operations, 3 variables)'}"
        print(f"  {label}")
        row("bulk", f"{name}: naive numpy value+gradient (reference)", seconds(ref))
        row("bulk", f"{name}: value_and_grad, {cores} cores",
            seconds(statistics.median(times["api"])), seconds(ref), ratio(times, "api", "ref"),
            goal if cores == 1 or name != "E3" else 0.2)
        row("bulk", f"{name}: value_and_grad, 1 core", seconds(statistics.median(times["one"])),
            seconds(ref), ratio(times, "one", "ref"), goal)
        row("bulk", f"{name}: value() + grad(), against value_and_grad",
            seconds(statistics.median(times["apart"])),
            seconds(statistics.median(times["api"])), ratio(times, "apart", "api"))
        tape_times = rounds({"ref": lambda: reference(**at), "tape": tape},
                            max(1, options.repeats // 3))
        row("bulk", f"{name}: the tape (before issue 12)",
            seconds(statistics.median(tape_times["tape"])),
            seconds(statistics.median(tape_times["ref"])), ratio(tape_times, "tape", "ref"))
        gc.collect()


def _points(text: str, n: int, span):
    """The case's n points, the same on every call."""
    rng = np.random.default_rng(12)
    return {v: rng.uniform(*span, n) for v in adcli.parse(text).variables}


def control() -> None:
    """Is there a second core to have? sha256 (which releases the GIL) on two threads at
    once, against the same work on one: about 0.5 when a core is free, 1.0 when not."""
    import hashlib
    import threading

    data = b"x" * (1 << 23)

    def work():
        for _ in range(8):
            hashlib.sha256(data).digest()

    def two():
        threads = [threading.Thread(target=work) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    times = rounds({"one": lambda: (work(), work()), "two": two}, 5)
    row("bulk", "control: the same work on 2 threads, against 1",
        seconds(statistics.median(times["two"])), seconds(statistics.median(times["one"])),
        ratio(times, "two", "one"))


def peers(name, text, reference, at, options) -> None:
    """jax.jit, torch and autograd value+gradient of the same function, when installed."""
    for peer, make in (("jax.jit", _jax_peer), ("torch", _torch_peer),
                       ("autograd", _autograd_peer)):
        try:
            f = make(name, at)
        except ImportError:
            continue
        times = rounds({"ref": lambda: reference(**at), "peer": f}, options.repeats)
        row("bulk", f"{name}: {peer}", seconds(statistics.median(times["peer"])),
            seconds(statistics.median(times["ref"])), ratio(times, "peer", "ref"))


def _jax_peer(name, at):
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    function = _jax_function(name, jnp)
    grad = jax.jit(jax.value_and_grad(lambda *xs: function(*xs).sum(),
                                      argnums=tuple(range(len(at)))))
    inputs = [jnp.asarray(v) for v in at.values()]
    return lambda: jax.block_until_ready(grad(*inputs))


def _torch_peer(name, at):
    import torch

    function = _jax_function(name, torch)
    inputs = [torch.tensor(v, requires_grad=True) for v in at.values()]

    def run():
        y = function(*inputs)
        return y.detach(), torch.autograd.grad(y.sum(), inputs)
    return run


def _autograd_peer(name, at):
    import autograd
    import autograd.numpy as anp

    function = _jax_function(name, anp)
    grad = autograd.value_and_grad(lambda xs: function(*xs).sum())
    inputs = list(at.values())
    return lambda: grad(inputs)


def _jax_function(name, np_like):
    """The case as a function of a numpy-like module (jax.numpy, torch, autograd.numpy)."""
    sin, cos, exp, log = np_like.sin, np_like.cos, np_like.exp, np_like.log
    tanh, sqrt = np_like.tanh, np_like.sqrt
    if name == "E1":
        return lambda x: exp(x**2)**2
    if name == "E2":
        return lambda x1, x2: sin(x1) + x1 * x2
    return lambda x, y, z: (exp(sin(x) * y) / (1 + z**2) + log(1 + x**2 + y**2) * cos(z * y)
                            - tanh(x * y - z) * sqrt(x**2 + z**2 + 1)
                            + (x + 2)**1.5 / (y + cos(x)**2) + sin(x * z)**3 * exp(-y / z))


# ----- huge expressions through the CLI -------------------------------------------------------

def huge(options) -> None:
    print("\n== huge expressions: adcli grad @FILE --at ... --format json, fresh processes "
          "(issue 12, goal 3) ==")
    k, depth, megabytes = options.terms, options.depth, options.megabytes
    cases = [
        (f"K = {k:.0e} terms sum sin(x*k)*exp(y/k)",
         " + ".join(f"sin(x*{i})*exp(y/{i})" for i in range(1, k + 1)), "x=0.3,y=0.7", 0.6),
        (f"{depth:,}-deep nesting sin(sin(...x))", "sin(" * depth + "x" + ")" * depth,
         "x=1", 1.0),
        (f"{megabytes:g} MB expression x*y+x*y+...",
         "+".join(["x*y"] * int(megabytes * 250_000)), "x=1.5,y=-2", 3.0),
    ]
    row("huge", "this machine's Python: 10^7 additions in a loop", seconds(python_speed()))
    exe = adcli_executable()
    with tempfile.TemporaryDirectory(prefix="adcli-huge-") as tmp:
        base = statistics.median(run_child([sys.executable, "-c", "import numpy"], None)[0]
                                 for _ in range(3))
        for label, text, at, goal in cases:
            path = os.path.join(tmp, "expression.txt")
            with open(path, "w") as file:
                file.write(text)
            argv = [exe, "grad", f"@{path}", "--at", at, "--format", "json"]
            runs = [run_child(argv, None) for _ in range(options.huge_repeats)]
            wall = statistics.median(r[0] for r in runs)
            rss = max(r[1] for r in runs)
            parse, evaluate, tape = split(text, at)
            row("huge", f"{label}: CLI wall time", seconds(wall), "", wall, goal, unit=" s")
            row("huge", f"  in process: parse / evaluate (tape: {seconds(tape)})",
                f"{seconds(parse)} / {seconds(evaluate)}", f"start-up {seconds(base)}")
            if "MB" in label:
                row("huge", f"{label}: CLI peak memory", f"{rss:.0f} MB", "", rss, 300.0,
                    unit=" MB")


def python_speed() -> float:
    """Seconds (best of three) for a pure-Python loop, to read the goals in seconds across
    machines: first run on 1 December (0.67-0.73 s), on a machine where the huge rows took
    2.6-3.2x as long as on 30 November's (not measured there)."""
    def loop():
        total = 0
        for i in range(10_000_000):
            total += i
        return total
    return min(rounds({"loop": loop}, 3, warm=False)["loop"])


def split(text: str, at: str):
    """Seconds to parse, to evaluate value and gradient (kernel), and with the tape."""
    values = {name: np.array([float(v)]) for name, v in
              (pair.split("=") for pair in at.split(","))}
    gc.disable()
    try:
        start = time.perf_counter()
        expression = adcli.parse(text)
        parsed = time.perf_counter()
        expression.derivatives(values)
        evaluated = time.perf_counter()
        with tape_only():
            expression.derivatives(values)
        taped = time.perf_counter()
    finally:
        gc.enable()
    return parsed - start, evaluated - parsed, taped - evaluated


# ----- Taylor mode --------------------------------------------------------------------------

def taylor(options) -> None:
    from adcli.taylor import taylor_derivative

    print("\n== higher order: grad --order N in Taylor mode (issue 12, goal 4) ==")
    expression = adcli.parse("exp(sin(x))*x^3/(1+x^2)")
    x = np.linspace(-2.0, 2.0, 10_000)
    nested_x = x[:: 10 if options.quick else 1]
    nested = nested_reverse(expression, nested_x, 8)
    fast = taylor_derivative(expression, {"x": nested_x}, "x", 8)
    if not np.allclose(fast, nested, rtol=1e-10, atol=1e-10 * np.max(np.abs(nested))):
        sys.exit("Taylor mode and nested reverse disagree at order 8")
    times = rounds({"taylor": lambda: taylor_derivative(expression, {"x": x}, "x", 8),
                    "nested": lambda: nested_reverse(expression, nested_x, 8)},
                   max(1, options.repeats // 3))
    t = statistics.median(times["taylor"])
    what = f"nested reverse at {len(nested_x):.0e} points"
    row("taylor", "order 8 at 1e4 points", seconds(t), "", t * 1e3, 30, unit=" ms")
    row("taylor", f"  against {what}", seconds(statistics.median(times["nested"])),
        seconds(t), statistics.median(times["nested"]) / t)
    one = rounds({"taylor": lambda: taylor_derivative(expression, {"x": 0.7}, "x", 20)},
                 options.repeats * 3)
    t20 = statistics.median(one["taylor"])
    row("taylor", "order 20 at one point", seconds(t20), "", t20 * 1e3, 5, unit=" ms")


def nested_reverse(expression, x, order: int):
    """The order-th derivative by repeated reverse passes over the tape (what grad --order
    did before Taylor mode)."""
    from adcli import drivers
    from adcli.expression import _Run

    with np.errstate(all="ignore"):
        run = _Run(expression, [x], x.shape, watching=False)
        return drivers.nth_derivative(run.forward(), run.leaves, "x", order, x.shape)


# ----- a points file through the CLI ----------------------------------------------------------

def _same_output(argv: list[str], reference: list[str]) -> None:
    """Both commands print the same bytes (the reference writes what adcli should)."""
    ours, theirs = (subprocess.run(a, capture_output=True, check=True).stdout
                    for a in (argv, reference))
    if ours != theirs:
        sys.exit(f"{' '.join(argv[:3])}...: the output differs from the reference's")


def csv_stream(options) -> None:
    n = options.rows
    print(f"\n== {n:.0e}-row points file through the CLI, CSV out (issue 12, goal 5) ==")
    exe = adcli_executable()
    with tempfile.TemporaryDirectory(prefix="adcli-csv-") as tmp:
        paths = {rows: os.path.join(tmp, f"points-{rows}.csv") for rows in (n // 10, n)}
        for rows, path in paths.items():
            write_points(path, rows)

        def ours(rows):
            return [exe, "grad", "sin(x1)+x1*x2", "--points", paths[rows], "--format", "csv"]

        def reference(rows):
            return [sys.executable, "-c",
                    CSV_REFERENCE["points"].format(n=rows, path=paths[rows])]
        _same_output(ours(n // 10), reference(n // 10))
        times: dict[str, list] = {"adcli": [], "reference": [], "tenth": []}
        for _ in range(options.huge_repeats):
            times["adcli"].append(run_child(ours(n), n + 1))
            times["reference"].append(run_child(reference(n), n + 1))
            times["tenth"].append(run_child(ours(n // 10), n // 10 + 1))
    adcli_runs, refs = times["adcli"], times["reference"]
    wall = [o[0] / r[0] for o, r in zip(adcli_runs, refs)]
    row("csv", "adcli grad --points FILE --format csv", seconds(statistics.median(
        o[0] for o in adcli_runs)), seconds(statistics.median(r[0] for r in refs)),
        statistics.median(wall), 1.0)
    row("csv", "  peak memory (adcli / numpy-only reference)",
        f"{max(o[1] for o in adcli_runs):.0f} MB", f"{max(r[1] for r in refs):.0f} MB")
    # Flat: ten times the rows may not need more memory (1.25x allows for noise).
    rss, tenth = max(o[1] for o in adcli_runs), max(o[1] for o in times["tenth"])
    row("csv", f"  peak memory at {n:.0e} rows / at {n // 10:.0e}", f"{rss:.0f} MB",
        f"{tenth:.0f} MB", rss / tenth, 1.25)


# ----- the table -----------------------------------------------------------------------------

SECTIONS = {"startup": startup, "bulk": bulk, "huge": huge, "taylor": taylor, "csv": csv_stream}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="smaller sizes, fewer repeats: shows every part still works")
    parser.add_argument("--only", nargs="+", choices=list(SECTIONS), default=list(SECTIONS))
    parser.add_argument("--markdown", action="store_true",
                        help="end with the table in Markdown (for the README)")
    options = parser.parse_args()
    quick = options.quick
    JUDGED[0] = not quick
    options.points = 10**5 if quick else 10**6
    options.repeats = 3 if quick else 11
    options.startup_runs = 3 if quick else 21
    options.terms = 10**3 if quick else 10**4
    options.depth = 10**4 if quick else 10**5
    options.megabytes = 0.1 if quick else 1.0
    options.rows = 10**5 if quick else 10**6
    options.huge_repeats = 1 if quick else 3
    print(f"adcli {adcli.__version__} ({source_state()}), numpy {np.__version__}, python "
          f"{sys.version.split()[0]}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f}; {time.strftime('%Y-%m-%d %H:%M')}"
          f"{'; QUICK: sizes below the goals' if quick else ''}")
    print(f"  {'figure':<46} {'adcli':>14} {'reference':>16} {'ratio':>8} {'goal':>9} "
          f"{'':>6}")
    for name in options.only:
        SECTIONS[name](options)
    if options.markdown:
        print("\n| figure | adcli | reference (same run) | ratio | goal | |")
        print("|---|---|---|---|---|---|")
        for _, figure, measured, reference, ratio_text, goal, verdict in ROWS:
            print(f"| {figure.strip()} | {measured} | {reference} | {ratio_text} | {goal} | "
                  f"{verdict if verdict != '-' else ''} |")
    missed = [r for r in ROWS if r[-1] == "MISSED"]
    if quick:
        print(f"\n{len(ROWS)} figures (quick: sizes below the goals, not judged)")
    else:
        print(f"\n{len(ROWS)} figures, {sum(r[-1] == 'MET' for r in ROWS)} goals met, "
              f"{len(missed)} missed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
