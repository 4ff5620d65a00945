"""Higher derivatives in Taylor mode against nested reverse passes, in the same run.

Run by hand (not part of the test suite):

    python benchmarks/bench_taylor.py            # ~15 s (nested reverse at 10^4 points: ~4 s)
    python benchmarks/bench_taylor.py --quick    # nested reverse at 10^3 points only

Case: f = exp(sin(x))*x^3/(1+x^2) (issue 12, goal 4).
- order 8 at 10^4 points: Taylor mode (adcli.taylor.taylor_derivative) against
  Expression.derivative (order-many reverse passes over a graph that triples each pass).
  Goal: Taylor under 30 ms.
- order 20 at one point: Taylor mode against mpmath.diff at 60 digits (when mpmath is
  installed). Nested reverse refuses order 20 (its growth budget), so the table shows the
  highest order it accepts instead. Goal: Taylor under 5 ms.
Before timing, Taylor mode is checked against nested reverse at order 8 (relative 1e-12 of
the derivative's typical size) and against mpmath at order 20.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from _common import source_state  # noqa: E402 (run as a script)

import adcli
from adcli.errors import ValuesError
from adcli.taylor import taylor_derivative

TEXT = "exp(sin(x))*x^3/(1+x^2)"


def timed(function, runs: int) -> tuple[float, float]:
    """(median, min) seconds over runs, after one unmeasured warm-up."""
    function()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def check(expression, x) -> None:
    reference = expression.derivative("x", 8, x=x)
    actual = taylor_derivative(expression, {"x": x}, "x", 8)
    scale = np.maximum(np.abs(reference), np.median(np.abs(reference)))
    worst = float(np.max(np.abs(actual - reference) / scale))
    if worst > 1e-12:
        sys.exit(f"order 8 disagrees with nested reverse: {worst:.2e}")
    try:
        import mpmath
    except ImportError:
        print("mpmath not installed: order 20 not checked")
        return
    with mpmath.workdps(60):
        exact = float(mpmath.diff(lambda t: mpmath.exp(mpmath.sin(t)) * t**3 / (1 + t**2),
                                  mpmath.mpf("0.7"), 20))
    error = abs(float(taylor_derivative(expression, {"x": 0.7}, "x", 20)) - exact) / abs(exact)
    if error > 1e-12:
        sys.exit(f"order 20 disagrees with mpmath: {error:.2e}")
    print(f"checked: order 8 within {worst:.1e} of nested reverse, order 20 within "
          f"{error:.1e} of mpmath")


def highest_nested_order(expression) -> int:
    order = 8
    while True:
        try:
            expression.derivative("x", order + 1, x=0.7)
        except ValuesError:
            return order
        order += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="nested reverse at 10^3 points")
    args = parser.parse_args()
    print(f"adcli {source_state()}; numpy {np.__version__}")
    expression = adcli.parse(TEXT)
    x = np.linspace(-2.0, 2.0, 10_000)
    check(expression, x[::97])

    rows = []
    taylor8 = timed(lambda: taylor_derivative(expression, {"x": x}, "x", 8), 21)
    rows.append(("order 8, 10^4 points", "Taylor", taylor8, "< 30 ms"))
    nested_x = x[::10] if args.quick else x
    nested8 = timed(lambda: expression.derivative("x", 8, x=nested_x), 1)
    label = "nested reverse" + (" (10^3 points)" if args.quick else "")
    rows.append(("order 8, 10^4 points", label, nested8, ""))
    taylor20 = timed(lambda: taylor_derivative(expression, {"x": 0.7}, "x", 20), 101)
    rows.append(("order 20, 1 point", "Taylor", taylor20, "< 5 ms"))
    top = highest_nested_order(expression)
    nested_top = timed(lambda: expression.derivative("x", top, x=0.7), 1)
    rows.append((f"order {top}, 1 point", "nested reverse (order 20 refused)", nested_top, ""))

    print(f"\n{'case':22} {'method':36} {'median':>10} {'min':>10}  goal")
    for case, method, (median, best), goal in rows:
        print(f"{case:22} {method:36} {median * 1e3:8.2f}ms {best * 1e3:8.2f}ms  {goal}")
    if not args.quick:
        print(f"\nnested reverse / Taylor at order 8: {nested8[0] / taylor8[0]:,.0f}x")


if __name__ == "__main__":
    main()
