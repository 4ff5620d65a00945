"""Throughput and memory of adcli's gradient, as ratios to hand-written numpy in the same run.

Run by hand (not part of the test suite):

    /tmp/adcli-venv/bin/python benchmarks/bench_gradient.py            # everything (~5 min)
    /tmp/adcli-venv/bin/python benchmarks/bench_gradient.py --quick    # N <= 1e5, 0.25 MB text
    /tmp/adcli-venv/bin/python benchmarks/bench_gradient.py --only grad --profile big

Four parts, each printed as a table:

1. ``grad``: ``Expression.grad(**arrays)`` at N = 1e3, 1e5, 1e6 points against a
   hand-written numpy function computing the same value and gradient (the derivative
   worked out on paper, vectorised over the points, no AD). Reported: median seconds of
   both, the time ratio AD/reference, and the extra peak memory (tracemalloc, above what
   was allocated before the call) of both, as a multiple of the input arrays' size.
   "one-shot" is the API on all N points at once; "chunked" splits the points as the CLI
   does (``adcli.points.chunk_size_for``) and runs when N exceeds one chunk. One-shot is
   skipped when its graph would need more than --memory-limit (the tape holds every
   intermediate array: about 6 bytes per node per point here). "AD flt" is the number of
   minor page faults per AD call: fresh memory the kernel had to map (see README).
2. ``hessian``: ``Expression.hessian`` against ``Expression.grad`` and against a
   hand-written numpy Hessian, at --hessian-n points.
3. ``big``: a ~1 MB expression ``x*y+x*y+...`` at one point: seconds to parse, evaluate
   and differentiate it, each as a ratio to tokenising the text with ``re.findall``
   (a crude floor: the least work any parser must do).
4. ``--profile CASE``: cProfile of the AD gradient of one case (one of the case names,
   or ``big`` for part 3), sorted by internal time: where the time goes.

Goals (ratios, since the machine is shared and noisy):
- grad, many points (N >= 1e5): AD/reference time <= 3x for every case; at N = 1e3 the
  per-node Python overhead dominates and is reported, not judged.
- grad, memory: chunked peak stays bounded (a few hundred MB at most, whatever N);
  one-shot peak is proportional to nodes x N, as for any tape-based reverse mode.
- hessian: <= (1 + 2k) x the gradient's time for k variables.
- big: parse and grad each <= 100x tokenising, and linear in the size of the text.
"""
from __future__ import annotations

import argparse
import cProfile
import gc
import io
import math
import os
import pstats
import re
import resource
import statistics
import sys
import time
import tracemalloc
from dataclasses import dataclass

from _common import source_state  # noqa: E402 (run as a script)
from typing import Callable

import numpy as np

import adcli
from adcli.points import chunk_size_for


# ----- the cases: expression text and its derivatives worked out by hand ---------------

@dataclass
class Case:
    name: str
    text: str
    inputs: Callable[[int, np.random.Generator], dict[str, np.ndarray]]
    reference: Callable[..., tuple[np.ndarray, dict[str, np.ndarray]]]   # value, gradient
    hessian: Callable[..., np.ndarray]                                    # (N, k, k)
    goal: float = 3.0


def uniform(names, low=-1.0, high=1.0):
    return lambda n, rng: {v: rng.uniform(low, high, n) for v in names}


def sin_product():
    def reference(x1, x2):
        return np.sin(x1) + x1 * x2, {"x1": np.cos(x1) + x2, "x2": x1.copy()}

    def hessian(x1, x2):
        h = np.zeros(x1.shape + (2, 2))
        h[..., 0, 0] = -np.sin(x1)
        h[..., 0, 1] = h[..., 1, 0] = 1.0
        return h
    return Case("sin(x1)+x1*x2", "sin(x1)+x1*x2", uniform(["x1", "x2"]), reference, hessian)


def exp_square():
    def reference(x):
        e = np.exp(x * x)
        f = e * e
        return f, {"x": 4.0 * x * f}

    def hessian(x):
        e = np.exp(x * x)
        return ((4.0 + 16.0 * x * x) * e * e)[..., None, None]
    return Case("exp(x^2)^2", "exp(x^2)^2", uniform(["x"]), reference, hessian)


def polynomial(terms=50, low=-1.0, high=1.0):
    coefficients = [(k % 7 + 1) / 8 for k in range(terms + 1)]        # exact in binary
    text = " + ".join([repr(coefficients[0])] + [f"{coefficients[k]!r}*x^{k}"
                                                  for k in range(1, terms + 1)])

    # Term by term as the formula is written (no Horner), each power from the one before:
    # what one would write by hand. (With x**k per term, numpy's pow alone takes ~10 ms
    # per term at 1e5 points and the reference becomes as slow as the AD.)
    def reference(x):
        f = np.full_like(x, coefficients[0])
        g = np.zeros_like(x)
        before = np.ones_like(x)                       # x^(k-1)
        for k in range(1, terms + 1):
            c = coefficients[k]
            g += (k * c) * before
            before = before * x                        # now x^k
            f += c * before
        return f, {"x": g}

    def hessian(x):
        h = np.zeros_like(x)
        power = np.ones_like(x)                        # x^(k-2)
        for k in range(2, terms + 1):
            h += (k * (k - 1) * coefficients[k]) * power
            power = power * x
        return h[..., None, None]
    where = "x in [-1,1]" if low < 0 else f"x in [{low:g},{high:g}]"
    return Case(f"poly {terms} terms, {where}", text, uniform(["x"], low, high), reference,
                hessian)


def big_sum(terms=53):
    """sum_k a_k sin(b_k x + c_k y) exp(-z^2/d_k): 19 nodes a term, ~1,000 nodes in all."""
    params = [(round(1 / k, 4), round(0.5 + k / terms, 4), round(1.5 - k / terms, 4),
               round(1 + k / 10, 4)) for k in range(1, terms + 1)]
    text = " + ".join(f"{a!r}*sin({b!r}*x + {c!r}*y)*exp(-z*z/{d!r})" for a, b, c, d in params)

    def reference(x, y, z):
        f, gx, gy, gz = (np.zeros_like(x) for _ in range(4))
        for a, b, c, d in params:
            u = b * x + c * y
            e = np.exp(-(z * z) / d)
            s = a * np.sin(u) * e
            ce = a * np.cos(u) * e
            f += s
            gx += b * ce
            gy += c * ce
            gz += s * (-2.0 / d) * z
        return f, {"x": gx, "y": gy, "z": gz}

    def hessian(x, y, z):
        h = np.zeros(x.shape + (3, 3))
        for a, b, c, d in params:
            u = b * x + c * y
            e = np.exp(-(z * z) / d)
            s = a * np.sin(u) * e
            ce = a * np.cos(u) * e
            w = (-2.0 / d) * z                       # d/dz of the exponent
            h[..., 0, 0] -= b * b * s
            h[..., 0, 1] -= b * c * s
            h[..., 1, 1] -= c * c * s
            h[..., 0, 2] += b * ce * w
            h[..., 1, 2] += c * ce * w
            h[..., 2, 2] += s * (w * w - 2.0 / d)
        for i, j in ((0, 1), (0, 2), (1, 2)):
            h[..., j, i] = h[..., i, j]
        return h
    return Case(f"{terms}-term sin*exp sum", text, uniform(["x", "y", "z"]), reference, hessian)


# The polynomial twice: numpy's pow is ~30x slower for a negative base (a scalar libm path)
# than for a positive one, and x^k is where the polynomial's AD spends its time.
CASES = [sin_product(), exp_square(), polynomial(), polynomial(low=0.1, high=1.0), big_sum()]


# ----- measuring -------------------------------------------------------------------------

def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def minor_faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def compare(fns: dict[str, Callable[[], object]], min_seconds: float, max_repeats: int):
    """Median seconds, min seconds and minor page faults per call of each function, run
    round-robin after one warm-up each."""
    first = {name: timed(fn) for name, fn in fns.items()}
    slowest = max(first.values())
    repeats = int(min(max_repeats, max(3, math.ceil(min_seconds / max(slowest, 1e-6)))))
    times = {name: [] for name in fns}
    faults = dict.fromkeys(fns, 0)
    for _ in range(repeats):
        for name, fn in fns.items():
            before = minor_faults()
            times[name].append(timed(fn))
            faults[name] += minor_faults() - before
    return {name: (statistics.median(t), min(t), faults[name] / repeats)
            for name, t in times.items()}


def peak_bytes(fn) -> int:
    """Peak traced memory during fn(), above what was allocated before it (numpy reports
    its array buffers to tracemalloc). Run apart from timing: tracing slows allocation."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        fn()
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


def ad_chunked(expression, at: dict[str, np.ndarray], chunk: int) -> dict[str, np.ndarray]:
    """The gradient over all points, chunk by chunk as the CLI's pipeline does."""
    n = len(next(iter(at.values())))
    parts = [expression.grad(**{v: a[s:s + chunk] for v, a in at.items()})
             for s in range(0, n, chunk)]
    return {v: np.concatenate([p[v] for p in parts]) for v in expression.variables}


def check_close(got: dict, want: dict, what: str) -> None:
    for v, w in want.items():
        if not np.allclose(got[v], w, rtol=1e-9, atol=1e-12):
            worst = np.max(np.abs(got[v] - w))
            sys.exit(f"{what}: AD and reference disagree on d/d{v} (max abs diff {worst:g})")


def fmt_s(seconds: float) -> str:
    return f"{seconds * 1e3:9.2f} ms" if seconds < 1 else f"{seconds:9.3f} s "


# ----- part 1: gradient throughput and memory --------------------------------------------

def bench_grad(sizes, options, rng) -> list[tuple]:
    print("\n== grad: AD vs hand-written numpy (time: median of round-robin repeats; "
          "memory: extra peak / input size) ==")
    print(f"  {'case':<28} {'nodes':>5} {'N':>8} {'mode':<9} {'AD':>12} {'reference':>12} "
          f"{'AD/ref':>7} {'AD mem':>8} {'ref mem':>8} {'AD flt':>7} {'goal':>6}")
    rows = []
    for case in CASES:
        expression = adcli.parse(case.text)
        nodes = len(expression.nodes)
        chunk = chunk_size_for(nodes)
        for n in sizes:
            at = case.inputs(n, rng)
            input_bytes = sum(a.nbytes for a in at.values())
            modes = {}
            if 6 * nodes * n <= options.memory_limit * 1e6:
                modes["one-shot"] = lambda: expression.grad(**at)
            if n > chunk:
                modes[f"chunk {chunk}"] = lambda: ad_chunked(expression, at, chunk)
            reference = lambda: case.reference(**at)
            want = reference()[1]
            for mode, ad in modes.items():
                check_close(ad(), want, f"{case.name}, N={n}, {mode}")
                t = compare({"ad": ad, "ref": reference}, options.min_seconds, options.max_repeats)
                mem_ad, mem_ref = peak_bytes(ad) / input_bytes, peak_bytes(reference) / input_bytes
                ratio = t["ad"][0] / t["ref"][0]
                judged = n >= 1e5
                verdict = ("MET" if ratio <= case.goal else "MISSED") if judged else "-"
                rows.append((case.name, nodes, n, mode, ratio, mem_ad, verdict))
                print(f"  {case.name:<28} {nodes:5d} {n:8.0e} {mode:<9} {fmt_s(t['ad'][0])} "
                      f"{fmt_s(t['ref'][0])} {ratio:6.1f}x {mem_ad:7.1f}x {mem_ref:7.1f}x "
                      f"{t['ad'][2]:7.0f} {verdict:>6}", flush=True)
            if "one-shot" not in modes:
                print(f"  {case.name:<28} {nodes:5d} {n:8.0e} one-shot  skipped: ~"
                      f"{6 * nodes * n / 1e9:.1f} GB of tape > --memory-limit "
                      f"{options.memory_limit} MB", flush=True)
            at = modes = None  # free the inputs before the next size
            gc.collect()
    return rows


# ----- part 2: Hessian --------------------------------------------------------------------

def bench_hessian(n, options, rng) -> None:
    print(f"\n== hessian at N={n:.0e}: AD Hessian vs AD gradient and vs a hand-written "
          "numpy Hessian ==")
    print(f"  {'case':<28} {'k':>2} {'hessian':>12} {'grad':>12} {'ref hess':>12} "
          f"{'H/grad':>7} {'goal':>6} {'H/ref':>7} {'H mem':>7}")
    for case in CASES:
        expression = adcli.parse(case.text)
        at = case.inputs(n, rng)
        k = len(expression.variables)
        input_bytes = sum(a.nbytes for a in at.values())
        got, want = expression.hessian(**at), case.hessian(**at)
        if not np.allclose(got, want, rtol=1e-8, atol=1e-10):
            sys.exit(f"{case.name}: AD and reference Hessians disagree "
                     f"(max abs diff {np.max(np.abs(got - want)):g})")
        t = compare({"hessian": lambda: expression.hessian(**at),
                     "grad": lambda: expression.grad(**at),
                     "ref": lambda: case.hessian(**at)}, options.min_seconds, options.max_repeats)
        h_grad = t["hessian"][0] / t["grad"][0]
        goal = 1 + 2 * k
        memory = peak_bytes(lambda: expression.hessian(**at)) / input_bytes
        print(f"  {case.name:<28} {k:2d} {fmt_s(t['hessian'][0])} {fmt_s(t['grad'][0])} "
              f"{fmt_s(t['ref'][0])} {h_grad:6.1f}x {goal:5d}x {t['hessian'][0] / t['ref'][0]:6.1f}x "
              f"{memory:6.0f}x", flush=True)
        verdict = "MET" if h_grad <= goal else "MISSED"
        print(f"  {'':<28}    hessian/grad goal <= {goal}x: {verdict}")


# ----- part 3: a ~1 MB expression at one point ----------------------------------------

_TOKEN = re.compile(r"\d+\.?\d*(?:[eE][+-]?\d+)?|\w+|\*\*|\S")


def big_text(megabytes: float) -> str:
    terms = max(1, int(megabytes * 1e6) // 4)   # "x*y+" is 4 characters
    return "+".join(["x*y"] * terms)


def bench_big(megabytes_list, options) -> None:
    print("\n== big: x*y+x*y+... at one point (seconds; ratio to re.findall tokenising) ==")
    print(f"  {'size':>9} {'nodes':>8} {'tokenise':>12} {'parse':>12} {'value':>12} "
          f"{'grad':>12} {'parse/tok':>9} {'grad/tok':>9} {'peak MB':>8}")
    for megabytes in megabytes_list:
        text = big_text(megabytes)
        tokenise = min(timed(lambda: _TOKEN.findall(text)) for _ in range(3))
        start = time.perf_counter()
        expression = adcli.parse(text)
        parse = time.perf_counter() - start
        terms = text.count("+") + 1
        value = timed(lambda: expression.value(x=0.5, y=2.0))
        holder = {}
        grad = timed(lambda: holder.setdefault("g", expression.grad(x=0.5, y=2.0)))
        g = holder["g"]
        if not (g["x"] == 2.0 * terms and g["y"] == 0.5 * terms):
            sys.exit(f"big: wrong gradient {g}")
        peak = peak_bytes(lambda: expression.grad(x=0.5, y=2.0)) if options.big_memory else math.nan
        print(f"  {len(text) / 1e6:6.2f} MB {len(expression.nodes):8d} {fmt_s(tokenise)} "
              f"{fmt_s(parse)} {fmt_s(value)} {fmt_s(grad)} {parse / tokenise:8.0f}x "
              f"{grad / tokenise:8.0f}x {peak / 1e6:8.0f}", flush=True)
        expression = holder = g = None  # free the graph before the next size
        gc.collect()


# ----- part 4: where the time goes -------------------------------------------------------

def profile(name: str, n: int, rng, lines: int) -> None:
    if name == "big":
        text = big_text(0.25)
        profile_run(lambda: adcli.parse(text), "parse of 0.25 MB x*y+...", lines)
        expression = adcli.parse(text)
        profile_run(lambda: expression.grad(x=0.5, y=2.0), "grad of 0.25 MB x*y+...", lines)
        return
    case = next((c for c in CASES if c.name.startswith(name)), None)
    if case is None:
        sys.exit(f"--profile: no case {name!r}; one of: big, "
                 + ", ".join(repr(c.name) for c in CASES))
    expression = adcli.parse(case.text)
    at = case.inputs(n, rng)
    profile_run(lambda: expression.grad(**at), f"grad of {case.name} at N={n:.0e}", lines)


def profile_run(run, what: str, lines: int) -> None:
    repeats = max(1, min(200, math.ceil(1.0 / max(timed(run), 1e-6))))   # about a second
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(repeats):
        run()
    profiler.disable()
    what += f", {repeats} run{'s' * (repeats > 1)}"
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(lines)
    text = out.getvalue()
    print(f"\n== cProfile: {what}, by internal time ==")
    print(text[text.find("ncalls") - 2:] if "ncalls" in text else text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N up to 1e5; 0.25 MB big text")
    parser.add_argument("--only", choices=["grad", "hessian", "big"], action="append")
    parser.add_argument("--sizes", type=float, nargs="+", help="numbers of points (default "
                        "1e3 1e5 1e6)")
    parser.add_argument("--hessian-n", type=float, default=1e4)
    parser.add_argument("--big-mb", type=float, nargs="+", help="sizes of the big expression "
                        "in MB (default 0.25 1; two sizes show whether cost is linear)")
    parser.add_argument("--big-memory", action="store_true",
                        help="also trace the big expression's peak memory (slow)")
    parser.add_argument("--memory-limit", type=float, default=2000,
                        help="MB of tape a one-shot run may take (default 2000)")
    parser.add_argument("--min-seconds", type=float, default=1.0,
                        help="repeat each measurement until the slowest side took this long")
    parser.add_argument("--max-repeats", type=int, default=25)
    parser.add_argument("--profile", metavar="CASE",
                        help="cProfile the AD gradient of one case (name prefix, or 'big')")
    parser.add_argument("--profile-n", type=float, default=1e5)
    options = parser.parse_args()
    sizes = [int(s) for s in options.sizes or ([1e3, 1e5] if options.quick else [1e3, 1e5, 1e6])]
    megabytes = options.big_mb or ([0.25] if options.quick else [0.25, 1.0])
    parts = options.only or (["grad", "hessian", "big"] if not options.profile else [])

    print(f"adcli {adcli.__version__} ({source_state()}), numpy {np.__version__}, "
          f"python {sys.version.split()[0]}, {os.cpu_count()} cores; "
          f"{time.strftime('%Y-%m-%d %H:%M')}")
    rng = np.random.default_rng(20240601)
    if "grad" in parts:
        bench_grad(sizes, options, rng)
    if "hessian" in parts:
        bench_hessian(int(options.hessian_n), options, rng)
    if "big" in parts:
        bench_big(megabytes, options)
    if options.profile:
        profile(options.profile, int(options.profile_n), rng, 25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
