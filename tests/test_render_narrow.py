"""What a user sees on narrow terminals (a pseudo-terminal at 40, 60, 80 columns), found by a
tester at real terminals: one layout per matrix, a tree that folds before it leaves a node
out, a point whose passed-through value holds a comma, a progress bar that drops words
before numbers, a shortened "read as:" cut between tokens, a folded sum's total on a line
of its own, --limit's wording for one row. Piped output stays byte for byte as it was."""
from __future__ import annotations

import math
import os
import re
import select
import signal
import subprocess
import time

from adcli.commands.trace import cells
from test_output import ANSI, adcli_executable, child_env, in_pty

HESSIAN = ["hessian", "temperature^2*pressure/3 + exp(volume)",
           "--at", "temperature=1/3,pressure=-1e-300,volume=700"]
GRAPH = "sin(x1)*exp(x2/3) + x1*x2*x3 - log(x3)/x1 + x1^2"
GRAPH_AT = "x1=1/3,x2=-2.5,x3=1e-300"
NUMBER = r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|-?inf|nan"


def shown(argv, columns, fits=True):
    """What a terminal of ``columns`` shows, each line within them (``fits``)."""
    code, screen = in_pty([adcli_executable(), *argv], columns)
    assert code == 0, screen
    assert not fits or all(cells(line) <= columns for line in screen.splitlines()), screen
    return screen


def piped(argv) -> bytes:
    done = subprocess.run([adcli_executable(), *argv], capture_output=True, env=child_env(),
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def section(screen: str, start: str) -> list[str]:
    lines = screen.splitlines()
    return lines[lines.index(start):]


# ----- 1. a matrix too wide for tables: one layout, every entry named -------------------

def test_a_hessian_too_wide_for_tables_is_named_lines_only_and_a_pipe_keeps_its_table():
    t, p, v = 1 / 3, -1e-300, 700.0
    # H[i][j] = d/dx_i (df/dx_j) of t^2 p/3 + exp(v), by hand
    expected = {("temperature", "temperature"): 2 * p / 3,
                ("temperature", "pressure"): 2 * t / 3, ("pressure", "temperature"): 2 * t / 3,
                ("volume", "volume"): math.exp(v)}
    hessian = section(shown(HESSIAN, 40), "Hessian at")
    assert not any(c in line for line in hessian for c in "┏┃│└"), hessian
    assert not any(line.strip().startswith("∂/∂") for line in hessian), hessian
    text = " ".join(" ".join(hessian).split())
    for r in ("temperature", "pressure", "volume"):
        for c in ("temperature", "pressure", "volume"):
            entry = f"∂{r}²" if r == c else f"∂{r}∂{c}"
            found = re.findall(rf"∂²f/{entry} = ({NUMBER})", text)
            assert len(found) == 1, (r, c, hessian)
            assert math.isclose(float(found[0]), expected.get((r, c), 0.0), rel_tol=1e-15)
    # wide enough for a table beside the row labels: tables only, as before
    for columns in (60, 80):
        wide = section(shown(HESSIAN, columns), f"Hessian at temperature={t!r}, "
                       "pressure=-1e-300," + (" volume=700.0" if columns == 80 else ""))
        assert "∂²f/" not in " ".join(wide) and "┃ ∂²f" in " ".join(wide), wide
    assert piped(["hessian", "x^2*y + y^3", "--at", "x=1,y=2"]).decode() == (
        "read as: ((x^2)*y) + (y^3)\n"
        "┏━━━━━┳━━━━━┳━━━━━━┳━━━━━━━┳━━━━━━━┓\n"
        "┃   x ┃   y ┃    f ┃ ∂f/∂x ┃ ∂f/∂y ┃\n"
        "┡━━━━━╇━━━━━╇━━━━━━╇━━━━━━━╇━━━━━━━┩\n"
        "│ 1.0 │ 2.0 │ 10.0 │   4.0 │  13.0 │\n"
        "└─────┴─────┴──────┴───────┴───────┘\n"
        "Hessian at x=1.0, y=2.0\n"
        "┏━━━━━━┳━━━━━━┳━━━━━━┓\n"
        "┃ ∂²f  ┃ ∂/∂x ┃ ∂/∂y ┃\n"
        "┡━━━━━━╇━━━━━━╇━━━━━━┩\n"
        "│ ∂/∂x │  4.0 │  2.0 │\n"
        "│ ∂/∂y │  2.0 │ 12.0 │\n"
        "└──────┴──────┴──────┘\n")


def test_a_name_wider_than_the_terminal_is_not_said_twice_in_a_row():
    name = "a" * 50
    screen = shown(["hessian", f"{name}^2*y", "--at", f"{name}=2,y=3"], 40, fits=False)
    hessian = section(screen, "Hessian at")
    assert all(a != b for a, b in zip(hessian, hessian[1:])), hessian
    assert not any(line.strip().startswith("∂/∂") for line in hessian), hessian
    joined = "".join(line.strip() for line in hessian)  # each name's lines run together
    # d2/da2 (a^2 y) = 2y, d2/da dy = 2a, d2/dy2 = 0
    for r, c, value in [(name, name, 6.0), (name, "y", 4.0), ("y", name, 4.0), ("y", "y", 0.0)]:
        entry = f"∂{r}²" if r == c else f"∂{r}∂{c}"
        assert f"∂²f/{entry}={value!r}" in joined.replace(" ", ""), hessian


# ----- 2. the tree folds a wide share instead of leaving it out -------------------------

def test_the_tree_folds_a_share_too_wide_for_one_line_instead_of_calling_it_too_deep():
    screen = shown(["graph", GRAPH, "--at", GRAPH_AT, "--format", "tree"], 40)
    lines = screen.splitlines()
    assert "too deep" not in screen, screen
    # x2's use in x1*x2*x3 hands back x1*x3, by hand; its "+=" leads the number's line
    share = repr(1e-300 * (1 / 3))
    at = lines.index("│ │   │ └ v2 = x2 = -2.5")
    assert lines[at + 1:at + 3] == ["│ │   │     v̄2", f"│ │   │       += {share}"], screen
    assert re.search(rf"v̄2 = {re.escape(share)}\s", screen[screen.index("each variable"):])
    for columns in (60, 80):
        wider = shown(["graph", GRAPH, "--at", GRAPH_AT, "--format", "tree"], columns)
        assert "too deep" not in wider and f"v̄2 += {share}" in wider, wider


def test_a_level_is_left_out_only_where_its_indentation_leaves_no_room():
    text = "x"
    for _ in range(14):
        text = f"sin({text})*x"
    screen = shown(["graph", text, "--at", "x=1/3", "--format", "tree"], 40)
    assert "too deep" in screen     # at 14 levels, not even a number fits
    # v22 = sin(v21), 7 levels down: its parts fit once folded ("v̄22", then
    # "= 0.0123..."), so it is drawn (it was left out), its value whole. By hand: c = x,
    # then sin(c)*x over and over; v2, v4, ... are the sines, v22 the 11th.
    c, x = 1 / 3, 1 / 3
    sines = []
    for _ in range(14):
        sines.append(math.sin(c))
        c = sines[-1] * x
    found = re.search(r"v22 = sin\(v21\)[│\s]*= (\S+)", screen)
    assert found, screen
    value = float(found[1])
    assert math.isclose(value, sines[10], rel_tol=4e-16), (value, sines[10], screen)


# ----- 3. a passed-through value with a comma is quoted -----------------------------------

def test_a_passed_through_value_holding_a_comma_is_quoted_in_the_point(tmp_path):
    points = tmp_path / "points.csv"
    points.write_text('id,x\n"p 1, q",1\np2,2\n', encoding="utf-8")
    screen = shown(["trace", "sin(x)", "--points", str(points)], 80)
    assert "at id='p 1, q', x=1.0" in screen.splitlines(), screen
    assert "at id=p2, x=2.0" in screen.splitlines(), screen
    table = piped(["hessian", "sin(x)", "--points", str(points)]).decode().splitlines()
    assert "Hessian at id='p 1, q', x=1.0" in table and "Hessian at id=p2, x=2.0" in table


# ----- 4. the progress bar never cuts a number --------------------------------------------

def progress_frames(columns: int, argv: list[str], frames: int = 3) -> list[str]:
    """The progress lines a long run draws on a terminal stderr of ``columns``, stdout
    to /dev/null; the run is interrupted once ``frames`` have been seen."""
    master, slave = os.openpty()
    import fcntl
    import struct
    import termios

    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    child = subprocess.Popen([adcli_executable(), *argv], stdout=subprocess.DEVNULL,
                             stderr=slave, stdin=subprocess.DEVNULL, env=child_env())
    os.close(slave)
    data, deadline = b"", time.monotonic() + 120
    seen: list[str] = []
    try:
        while time.monotonic() < deadline and len(seen) < frames:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    data += os.read(master, 65536)
                except OSError:
                    break
            text = ANSI.sub("", data.decode("utf-8", "replace"))
            seen = [f for f in re.split(r"[\r\n]", text) if "/" in f and f.strip()]
    finally:
        child.send_signal(signal.SIGINT)
        child.wait(timeout=60)
        os.close(master)
    return seen


def test_a_narrow_progress_bar_drops_the_bar_and_the_rate_before_a_number():
    frames = progress_frames(40, ["grad", "sin(x)*exp(x)", "--grid", "x=0:1:2e7",
                                  "--format", "csv"])
    assert frames, "no progress bar shown"
    for frame in frames:
        assert "…" not in frame and cells(frame.rstrip()) <= 40, frames
        assert re.fullmatch(r"[\d,]+/20,000,000 points( ETA \d+:\d\d:\d\d)?", frame.strip()), \
            frames
    from adcli.progress import layout

    count, rate, eta = "983,040/20,000,000", "398,405 points/s", "ETA 0:00:48"
    assert layout(80, count, rate, eta, True) == (
        80 - len(f"{count} points {rate} {eta}") - 1, f"{count} points {rate} {eta}")
    assert layout(60, count, rate, eta, True) == (0, f"{count} points {rate} {eta}")
    assert layout(30, count, rate, eta, True) == (0, f"{count} points")
    assert layout(20, count, rate, eta, True) == (0, count)


# ----- 5. a shortened "read as:" is cut between tokens ------------------------------------

LONG = " + ".join(f"sin(x*{7.5 + 1.5 * k})*exp(-y/3)" for k in range(20))


def test_a_long_read_as_is_cut_between_names_and_numbers():
    numbers = set(map(float, re.findall(r"\d+(?:\.\d+)?", LONG)))
    screen = shown(["grad", LONG, "--at", "x=1,y=2"], 80)
    heading = " ".join(screen[:screen.index("┏")].split("\n"))
    trace = " ".join(shown(["trace", LONG, "--at", "x=1,y=2"], 80).split("\n\n")[0].split("\n"))
    caption = re.search(r'label="(read as: [^"]*)"', piped(["graph", LONG]).decode())[1]
    for text in (heading, trace, caption):
        assert " … " in text, text
        shortened = text[len("read as: "):text.index(" characters")].rsplit(" (", 1)[0]
        # (a long sum's opening parentheses are said as their count, not cut)
        shortened = re.sub(r"^\(\(\(\( … [\d,]+ opening parentheses … ", "", shortened)
        assert not re.search(r"(?<![a-z])(in|xp|n|p)\(", shortened), text
        shown_numbers = re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])", shortened)
        assert set(map(float, shown_numbers)) <= numbers, text


# ----- (a) a folded sum's total has a line of its own; (b) --limit's one row ---------------

def test_a_folded_sum_gives_its_total_a_line_of_its_own():
    text = GRAPH + " + sqrt(x1-1/3)"
    trace = shown(["trace", text, "--at", "x1=0.7,x2=0.1,x3=0"], 44).splitlines()
    start = next(i for i, line in enumerate(trace) if line.startswith("  v̄1 "))
    end = trace.index("", start)
    assert trace[end - 1] == "      = -inf", trace[start:end]
    assert not any(re.search(r"[+-] \S+ = -inf$", line) for line in trace), trace
    tree = shown(["graph", text, "--at", "x1=0.7,x2=0.1,x3=0", "--format", "tree"], 60)
    sums = section(tree, "each variable used more than once adds up what its uses hand")
    v1 = sums[2:sums.index(next(line for line in sums if line.startswith("  v̄2")))]
    assert len(v1) > 2 and v1[-1] == "    = -inf", sums   # folded: the total alone
    assert not any(re.search(r"[+-] \S+ = -inf$", line) for line in sums), sums
    assert piped(["trace", "x*y + x", "--at", "x=2,y=5"]).decode() == (
        "read as: (x*y) + x\n\nat x=2.0, y=5.0\n\nprimal trace\n"
        "  v1 = x       = 2.0\n  v2 = y       = 5.0\n  v3 = v1·v2   = 10.0\n"
        "  v4 = v3 + v1 = 12.0\n\nadjoint trace\n  v̄4 = 1.0  (seed)\n  v̄3 = v̄4 = 1.0\n"
        "  v̄2 = v̄3·v1 = 2.0\n  v̄1 = v̄4 + v̄3·v2 = 1.0 + 5.0 = 6.0\n\n"
        "gradient\n  ∂f/∂x = v̄1 = 6.0\n  ∂f/∂y = v̄2 = 2.0\n")


def test_limit_names_the_one_row_it_leaves_out():
    # 15 steps (3 inputs, 12 operations) and --limit 14: one row of each trace left out
    screen = shown(["trace", GRAPH, "--at", GRAPH_AT, "--limit", "14"], 80).splitlines()
    assert "  ⋮ 1 row, v8, left out by --limit 14" in screen, screen
    assert "  ⋮ 1 row, v̄8, left out by --limit 14" in screen, screen


def test_a_label_too_wide_even_at_the_root_is_left_out_as_too_wide_not_too_deep():
    """y's adjoint in x*y at x = -1.2345678901234568e-300 is that number, 30 columns with
    "v̄2 = ": on 28 columns no indentation would hold it, and the tree said "too deep" of a
    level 1 down. x's value, "= " and 24 characters, fits at the root's indentation only:
    too deep, rightly."""
    screen = shown(["graph", "x*y", "--at", "x=-1.2345678901234568e-300,y=2",
                    "--format", "tree"], 28)
    lines = screen.splitlines()
    assert lines[0].startswith("v3 = v1·v2") and lines[1] == "  = -2.4691357802469135e-300"
    assert [line.split(" this")[0] for line in lines if "⋯" in line] == [
        "├ ⋯ too deep for", "└ ⋯ too wide at"], screen
