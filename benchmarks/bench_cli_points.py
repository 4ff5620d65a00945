"""Memory and time of the CLI over many points: chunked evaluation must keep memory bounded.

Run by hand (not part of the test suite):

    /tmp/adcli-venv/bin/python benchmarks/bench_cli_points.py [--sizes 1e3 1e5 1e6] [--repeats 3]

Each run is a fresh ``adcli grad ... --format csv`` process (the entry point next to this
interpreter) whose output is counted and dropped. Its peak resident memory comes from
``os.wait4`` in a tiny launcher (``python -S``, ~10 MB): on Linux a child's ru_maxrss starts
at the RSS of the process that forked it, so forking straight from this script (which grows
while it writes the points files) would put a false floor under every number. Workloads:

- ``grid``:   ``exp(x^2)^2 --grid x=0:1:N``
- ``points``: ``sin(x1)+x1*x2 --points FILE`` with N rows (a CSV written beforehand)
- ``big``:    a ~1,000-node expression ``--grid x=0:1:N --at y=0.3,z=-0.2`` (adcli's chunk
  size shrinks with the node count so one chunk's tape stays near 256 MB)

Goals, as ratios measured in the same run:
- bounded memory: peak RSS at the largest N <= 1.25x peak RSS at 1e5 points (1e5 is already
  more than one chunk, so nothing may grow after it; only --grid's N-value axis may);
- time: adcli's seconds per point <= 3x a hand-written script doing the same job (numpy for
  the value and the derivative, chunk by chunk, and the same shortest-repr CSV lines), run
  with the same interpreter. The reference's peak RSS and ``python -c "import numpy"``'s are
  printed as floors.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from _common import adcli_executable, source_state  # noqa: E402 (run as a script)

import numpy as np

GOAL_MEMORY = 1.25
GOAL_TIME = 3.0

BIG_TERMS = 53
BIG_PARAMS = [(round(1 / k, 4), round(0.5 + k / BIG_TERMS, 4), round(1.5 - k / BIG_TERMS, 4),
               round(1 + k / 10, 4)) for k in range(1, BIG_TERMS + 1)]
BIG_TEXT = " + ".join(f"{a!r}*sin({b!r}*x + {c!r}*y)*exp(-z*z/{d!r})" for a, b, c, d in BIG_PARAMS)

# The reference scripts: the same output, by hand. {n} and {path} are filled in.
_WRITE = '''
def write(columns):
    out.write("".join(",".join(map(repr, row)) + "\\n" for row in zip(*(c.tolist() for c in columns))))
'''
REFERENCE = {
    "grid": '''
import sys, numpy as np
out = sys.stdout
''' + _WRITE + '''
x_all = np.linspace(0.0, 1.0, {n})
out.write("x,f,df/dx\\n")
for s in range(0, {n}, 65536):
    x = x_all[s:s + 65536]
    e = np.exp(x * x); f = e * e
    write([x, f, 4.0 * x * f])
''',
    "points": '''
import sys, csv, numpy as np
out = sys.stdout
''' + _WRITE + '''
with open({path!r}) as file:
    reader = csv.reader(file); next(reader)
    out.write("x1,x2,f,df/dx1,df/dx2\\n")
    while True:
        rows = [[float(v) for v in row] for _, row in zip(range(65536), reader)]
        if not rows:
            break
        a = np.array(rows); x1, x2 = a[:, 0], a[:, 1]
        write([x1, x2, np.sin(x1) + x1 * x2, np.cos(x1) + x2, x1])
''',
    "big": '''
import sys, numpy as np
out = sys.stdout
''' + _WRITE + '''
params = ''' + repr(BIG_PARAMS) + '''
x_all = np.linspace(0.0, 1.0, {n})
out.write("x,y,z,f,df/dx,df/dy,df/dz\\n")
for s in range(0, {n}, 32768):
    x = x_all[s:s + 32768]; y = np.full_like(x, 0.3); z = np.full_like(x, -0.2)
    f, gx, gy, gz = (np.zeros_like(x) for _ in range(4))
    for a, b, c, d in params:
        u = b * x + c * y; e = np.exp(-(z * z) / d)
        t = a * np.sin(u) * e; ce = a * np.cos(u) * e
        f += t; gx += b * ce; gy += c * ce; gz += t * (-2.0 / d) * z
    write([x, y, z, f, gx, gy, gz])
''',
}


def adcli_command(workload: str, n: int, path: str) -> list[str]:
    exe = adcli_executable()
    if workload == "grid":
        return [exe, "grad", "exp(x^2)^2", "--grid", f"x=0:1:{n}", "--format", "csv"]
    if workload == "points":
        return [exe, "grad", "sin(x1)+x1*x2", "--points", path, "--format", "csv"]
    return [exe, "grad", BIG_TEXT, "--grid", f"x=0:1:{n}", "--at", "y=0.3,z=-0.2",
            "--format", "csv"]


# Runs argv[1:] as its child, passes stdout and stderr through, then appends the child's
# exit status and peak RSS (kB; bytes on macOS) to stderr as its last line.
_LAUNCHER = (
    "import os, sys\n"
    "pid = os.fork()\n"
    "if pid == 0:\n"
    "    os.execv(sys.argv[1], sys.argv[1:])\n"
    "_, status, usage = os.wait4(pid, 0)\n"
    "sys.stderr.write(f'\\nLAUNCHER {os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}\\n')\n"
)


def run(argv: list[str], expect_lines: int | None) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one child process, stdout counted and dropped."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-S", "-c", _LAUNCHER, *argv],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines = 0
    for block in iter(lambda: child.stdout.read(1 << 20), b""):
        lines += block.count(b"\n")
    error = child.stderr.read().decode(errors="replace")
    child.wait()
    elapsed = time.perf_counter() - start
    head, _, last = error.rstrip("\n").rpartition("\n")
    _, code, maxrss = last.split() if last.startswith("LAUNCHER ") else ("", "-1", "0")
    if int(code) != 0:
        sys.exit(f"{argv[:3]}... failed ({code}): {head.strip() or error.strip()}")
    if expect_lines is not None and lines != expect_lines:
        sys.exit(f"{argv[:3]}... printed {lines} lines, expected {expect_lines}")
    rss_kb = int(maxrss) / (1024 if sys.platform == "darwin" else 1)
    return elapsed, rss_kb / 1024


def write_points(path: str, n: int) -> None:
    rng = np.random.default_rng(7)
    with open(path, "w") as file:
        file.write("x1,x2\n")
        for s in range(0, n, 100_000):
            block = rng.uniform(-2, 2, (min(n - s, 100_000), 2))
            file.write("".join(f"{a!r},{b!r}\n" for a, b in block.tolist()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e3, 1e5, 1e6])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workloads", nargs="+", default=["grid", "points", "big"],
                        choices=["grid", "points", "big"])
    parser.add_argument("--no-reference", action="store_true",
                        help="skip the hand-written reference scripts (memory only)")
    options = parser.parse_args()
    sizes = sorted(int(s) for s in options.sizes)

    print(f"adcli {source_state()}, python {sys.version.split()[0]}, numpy {np.__version__}, "
          f"{os.cpu_count()} cores; {time.strftime('%Y-%m-%d %H:%M')}")
    _, numpy_rss = run([sys.executable, "-c", "import numpy"], None)
    print(f"peak RSS of python -c 'import numpy': {numpy_rss:.0f} MB (a floor)")
    verdicts = []
    with tempfile.TemporaryDirectory(prefix="adcli-bench-") as tmp:
        for workload in options.workloads:
            print(f"\n== {workload}: adcli grad ... --format csv (median of {options.repeats}; "
                  "RSS is the max over the repeats) ==")
            print(f"  {'N':>8} {'adcli s':>9} {'ref s':>8} {'adcli/ref':>9} {'pts/s':>9} "
                  f"{'adcli RSS':>10} {'ref RSS':>8}")
            rss_by_n = {}
            for n in sizes:
                path = os.path.join(tmp, f"points-{n}.csv")
                if workload == "points" and not os.path.exists(path):
                    write_points(path, n)
                argv = adcli_command(workload, n, path)
                results = [run(argv, n + 1) for _ in range(options.repeats)]
                seconds = statistics.median(r[0] for r in results)
                rss = max(r[1] for r in results)
                rss_by_n[n] = rss
                if options.no_reference:
                    ref_s, ref_rss, ratio = float("nan"), float("nan"), float("nan")
                else:
                    code = REFERENCE[workload].format(n=n, path=path)
                    refs = [run([sys.executable, "-c", code], n + 1)
                            for _ in range(options.repeats)]
                    ref_s = statistics.median(r[0] for r in refs)
                    ref_rss = max(r[1] for r in refs)
                    ratio = seconds / ref_s
                    if n >= 1e5:
                        verdicts.append((f"{workload} N={n:.0e} time", ratio, GOAL_TIME))
                print(f"  {n:8.0e} {seconds:9.2f} {ref_s:8.2f} {ratio:8.1f}x "
                      f"{n / seconds:9.0f} {rss:7.0f} MB {ref_rss:5.0f} MB", flush=True)
            if 100_000 in rss_by_n and sizes[-1] > 100_000:
                growth = rss_by_n[sizes[-1]] / rss_by_n[100_000]
                verdicts.append((f"{workload} RSS N={sizes[-1]:.0e} / N=1e5", growth, GOAL_MEMORY))
                print(f"  RSS at {sizes[-1]:.0e} / at 1e5: {growth:.2f}x (goal <= {GOAL_MEMORY}x); "
                      f"at {sizes[-1]:.0e} / at {sizes[0]:.0e}: "
                      f"{rss_by_n[sizes[-1]] / rss_by_n[sizes[0]]:.2f}x")
    print("\nverdicts:")
    for what, ratio, goal in verdicts:
        print(f"  {what:<36} {ratio:6.2f}x  goal <= {goal}x  {'MET' if ratio <= goal else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
