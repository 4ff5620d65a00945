"""Start-up cost of a one-point adcli run, as a ratio to ``python -c "import numpy"``.

Goal (issue 12): a one-point ``adcli grad`` costs little more than importing numpy, the one
heavy dependency it cannot avoid. The median over rounds of the ratio of its wall time to
that of ``python -c "import numpy"`` in the same round, on the same interpreter: at most 1.2x
with ``--format json``, at most 1.35x for the default table (piped, COLUMNS=100: drawn
without rich, as rich would draw it).

Run by hand (not part of the test suite):

    /tmp/adcli-venv/bin/python benchmarks/bench_startup.py [--runs 15] [--top 15] [--check]

Every command is a fresh process; the commands are run round-robin, in reverse order every
other round (so a burst of noise from other users of the machine, or a slower second slot,
hits all of them alike), after one unmeasured warm-up each.
Then ``-X importtime`` of the two real commands shows which modules cost the most, and which
of them come on top of numpy's own imports. ``--profile`` adds a cProfile of one in-process
run (imports included), sorted by cumulative time. ``--check`` exits 1 if the goal is missed.

Bytecode: an installed package has its .pyc files, but a dev environment may set
PYTHONDONTWRITEBYTECODE (this one does), and then an editable install recompiles adcli's
sources on every start. By default the child processes get a private bytecode cache
(PYTHONPYCACHEPREFIX in a temporary directory, filled by the warm-up runs), so what is
measured is what an installed adcli costs; ``--as-is`` keeps the environment unchanged.
Measure a real install (``pip install .``), not an editable one: its import hook alone costs
~10 ms at every start (the script says so when it sees one).
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

from _common import adcli_executable, source_state  # noqa: E402 (run as a script)

ENV = dict(os.environ)  # what the child processes get; see main()
EXPRESSION = "exp(x^2)^2"
ARGS = ["grad", EXPRESSION, "--at", "x=0.5"]
JSON = [*ARGS, "--format", "json"]
# exp(x^2)^2 = exp(2x^2) and its derivative 4x exp(2x^2), at x = 0.5: e^0.5 and 2 e^0.5.
EXPECTED = ("1.648721270700128", "3.297442541400256")
GOALS = {"adcli grad --format json": 1.2, "adcli grad (table)": 1.35}


def commands() -> dict[str, list[str]]:
    py = sys.executable
    return {
        "python -c pass": [py, "-c", "pass"],
        "python -c 'import numpy'": [py, "-c", "import numpy"],        # the reference
        "python -c 'import adcli'": [py, "-c", "import adcli"],
        "adcli grad --format json": [adcli_executable(), *JSON],
        "adcli grad (table)": [adcli_executable(), *ARGS],
        "python -m adcli grad (json)": [py, "-m", "adcli", *JSON],
    }


REFERENCE = "python -c 'import numpy'"
MEASURED = ("adcli grad --format json", "adcli grad (table)", "python -m adcli grad (json)")


def run_once(argv: list[str], check_output: bool) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=ENV)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{argv} failed ({done.returncode}): {done.stderr.strip()}")
    if check_output and not all(number in done.stdout for number in EXPECTED):
        sys.exit(f"{argv} printed {done.stdout.strip()!r}, expected {EXPECTED!r} in it")
    return elapsed


def time_commands(runs: int) -> dict[str, list[float]]:
    cmds = commands()
    times: dict[str, list[float]] = {name: [] for name in cmds}
    for name, argv in cmds.items():            # warm the page cache and lark's grammar cache
        run_once(argv, check_output=name in MEASURED)
    for round_ in range(runs):
        for name, argv in list(cmds.items())[::-1 if round_ % 2 else 1]:
            times[name].append(run_once(argv, check_output=False))
    return times


def editable_install() -> bool:
    """Whether this interpreter's adcli is an editable install (a path hook in site-packages)."""
    code = "import sys; print(any('editable' in repr(f) for f in sys.meta_path))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV)
    return done.stdout.strip() == "True"


def paired(times: dict[str, list[float]], name: str) -> float:
    """Median of the per-round ratios: a round runs every command back to back, so a burst
    of load from other users tends to hit a command and the reference alike."""
    return statistics.median(t / r for t, r in zip(times[name], times[REFERENCE]))


# ----- -X importtime ----------------------------------------------------------------------

_LINE = re.compile(r"import time:\s+(\d+)\s+\|\s+(\d+)\s+\|( *)(\S+)")


def importtime(argv: list[str], repeats: int) -> dict[str, tuple[float, float, int]]:
    """Median (self, cumulative) microseconds per module over ``repeats`` runs, and depth."""
    samples: dict[str, list[tuple[int, int]]] = defaultdict(list)
    depth: dict[str, int] = {}
    for _ in range(repeats):
        done = subprocess.run([argv[0], "-X", "importtime", *argv[1:]], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, env=ENV)
        for match in _LINE.finditer(done.stderr):
            own, cumulative, indent, module = match.groups()
            samples[module].append((int(own), int(cumulative)))
            depth[module] = len(indent)
    return {m: (statistics.median(s for s, _ in v), statistics.median(c for _, c in v), depth[m])
            for m, v in samples.items()}


def top_package(module: str) -> str:
    return module.split(".")[0]


def report_imports(top: int, repeats: int) -> None:
    py = sys.executable
    numpy_only = importtime([py, "-c", "import numpy"], repeats)
    for args in (JSON, ARGS):
        # The console script is a Python file: run it under -X importtime with the same python.
        real = importtime([py, adcli_executable(), *args], repeats)
        print(f"\n-X importtime of adcli {' '.join(args)} (median of {repeats} runs)")
        report_import_times(real, numpy_only, top)


def report_import_times(real: dict, numpy_only: dict, top: int) -> None:
    total = sum(s for s, _, _ in real.values())
    reference = sum(s for s, _, _ in numpy_only.values())
    extra = {m: v for m, v in real.items() if m not in numpy_only}

    print(f"  all imports of the adcli run : {total / 1000:8.1f} ms ({len(real)} modules)")
    print(f"  all imports of 'import numpy': {reference / 1000:8.1f} ms ({len(numpy_only)} modules)")
    print(f"  modules beyond numpy's       : {sum(s for s, _, _ in extra.values()) / 1000:8.1f} ms "
          f"({len(extra)} modules)")

    by_package: dict[str, float] = defaultdict(float)
    for module, (own, _, _) in extra.items():
        by_package[top_package(module)] += own
    print("\n  imports beyond numpy's, self time summed by top-level package:")
    for package, own in sorted(by_package.items(), key=lambda kv: -kv[1])[:top]:
        print(f"    {own / 1000:7.1f} ms  {package}")

    print(f"\n  top {top} modules beyond numpy's by self time:")
    print(f"    {'self ms':>8} {'cumul ms':>9}  module")
    for module, (own, cumulative, _) in sorted(extra.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"    {own / 1000:8.1f} {cumulative / 1000:9.1f}  {module}")

    print("\n  adcli's own modules (cumulative includes what each one imports first):")
    print(f"    {'self ms':>8} {'cumul ms':>9}  module")
    for module, (own, cumulative, _) in sorted(real.items(), key=lambda kv: -kv[1][1]):
        if top_package(module) == "adcli":
            print(f"    {own / 1000:8.1f} {cumulative / 1000:9.1f}  {module}")


def report_profile(top: int) -> None:
    """cProfile of one in-process run (a fresh interpreter, so imports are included)."""
    code = (
        "import cProfile, pstats, sys, io\n"
        "profile = cProfile.Profile()\n"
        "profile.enable()\n"
        "from adcli.cli import main\n"
        "out, sys.stdout = sys.stdout, io.StringIO()\n"
        f"main({JSON!r})\n"
        "sys.stdout = out\n"
        "profile.disable()\n"
        f"pstats.Stats(profile).sort_stats('cumulative').print_stats({top})\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV)
    print("\ncProfile of one in-process run (imports included), by cumulative time:")
    print(done.stdout[done.stdout.find("ncalls") - 2:] if "ncalls" in done.stdout else done.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--importtime-runs", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--check", action="store_true", help="exit 1 if the goal is missed")
    parser.add_argument("--as-is", action="store_true",
                        help="no private bytecode cache: honour PYTHONDONTWRITEBYTECODE etc.")
    options = parser.parse_args()
    cache = None
    ENV["COLUMNS"] = "100"     # the table's case; a pipe has no width anyway
    if not options.as_is:
        cache = tempfile.mkdtemp(prefix="adcli-bench-pycache-")
        ENV.pop("PYTHONDONTWRITEBYTECODE", None)
        ENV["PYTHONPYCACHEPREFIX"] = cache
    try:
        return measure(options)
    finally:
        if cache:
            shutil.rmtree(cache, ignore_errors=True)


def measure(options) -> int:
    if options.as_is:
        print("bytecode: environment as is (PYTHONDONTWRITEBYTECODE="
              f"{os.environ.get('PYTHONDONTWRITEBYTECODE', '')!r})")
    else:
        print("bytecode: private cache (PYTHONPYCACHEPREFIX in a temporary directory)")

    print(f"adcli {source_state()}; python {sys.version.split()[0]} at {sys.executable}; "
          f"{os.cpu_count()} cores; {time.strftime('%Y-%m-%d %H:%M')}")
    if editable_install():
        print("warning: adcli is an editable install here; its import hook adds ~10 ms to "
              "every start: measure a real one (pip install .)")
    print(f"commands: adcli {' '.join(ARGS)} [--format json]")
    times = time_commands(options.runs)
    ref_median = statistics.median(times[REFERENCE])
    ref_min = min(times[REFERENCE])
    print(f"\n{options.runs} runs each, round-robin; wall seconds; 'paired' is the median over "
          "rounds of the ratio to the reference run of the same round")
    print(f"  {'command':<28} {'median':>8} {'min':>8} {'max':>8}  {'median/ref':>10} "
          f"{'min/ref':>8} {'paired':>7}")
    for name, values in times.items():
        med, low = statistics.median(values), min(values)
        print(f"  {name:<28} {med:8.3f} {low:8.3f} {max(values):8.3f}  "
              f"{med / ref_median:9.2f}x {low / ref_min:7.2f}x {paired(times, name):6.2f}x")

    verdicts = []
    print()
    for name, goal in GOALS.items():
        ratio = paired(times, name)
        verdicts.append(ratio <= goal)
        above = statistics.median(times[name]) - ref_median
        print(f"{name}: {ratio:.2f}x import numpy, paired (goal <= {goal}x): "
              f"{'MET' if ratio <= goal else 'MISSED'}; {above * 1000:.0f} ms on top (median); "
              f"ratio of medians {statistics.median(times[name]) / ref_median:.2f}x")

    report_imports(options.top, options.importtime_runs)
    if options.profile:
        report_profile(40)
    return 0 if all(verdicts) or not options.check else 1


if __name__ == "__main__":
    sys.exit(main())
