"""tester2's findings 8 and 9 (a-c) on trace, graph and plot's legend: what a reader checks
by hand (a sum of rounded terms) and how a narrow terminal folds a row. Every number is
worked out here by hand (the derivatives of x*exp(y)/(x+y) in closed form) or by exact
decimal arithmetic on the text shown, never taken from the program."""
from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, localcontext

import pytest

import adcli
from conftest import adcli_rows_on_terminal, run_cli, strict_json, terminal_cells

BAR = "\u0304"
WIDTHS = [40, 80, 120]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


cells = terminal_cells


def on_terminal(columns: int, *argv: str) -> list[str]:
    return adcli_rows_on_terminal(columns, *argv, rows=60)


def rounded(value, digits: int, rounding=ROUND_HALF_EVEN) -> Decimal:
    """``value`` (a Decimal) to ``digits`` significant digits."""
    if value == 0:
        return Decimal(0)
    with localcontext() as context:
        context.prec, context.rounding = digits, rounding
        return +value


def hand_sum_terms(side: str) -> list[str]:
    """The terms of a side such as "0.659 - 0.528", signed: ["0.659", "-0.528"]."""
    terms = re.findall(r"(^|[+-] )(-?[\d.]+(?:e[+-]?\d+)?)", side.strip())
    return [("-" + n).replace("--", "") if sign.startswith("-") else n for sign, n in terms]


def hand_sum(side: str) -> Decimal:
    """A side such as "0.659 - 0.528", added up exactly as by hand."""
    with localcontext() as context:
        context.prec = 1000
        return sum((Decimal(t) for t in hand_sum_terms(side)), Decimal(0))


def checks_by_hand(total: str, side: str, digits: int) -> bool:
    """Whether the terms of ``side`` add up to ``total`` to its ``digits`` digits, however
    a reader rounds a tie."""
    return any(rounded(hand_sum(side), digits, r) == Decimal(total)
               for r in (ROUND_HALF_EVEN, ROUND_HALF_UP))


# ----- 8. --digits: a total the rounded terms do not add up to is marked ≈ ----------------

X, Y = 2.0, 0.5
# f = x e^y/(x + y): df/dx = y e^y/(x + y)^2, df/dy = x e^y (x + y - 1)/(x + y)^2
DF_DX = Y * math.exp(Y) / (X + Y) ** 2
DF_DY = X * math.exp(Y) * (X + Y - 1) / (X + Y) ** 2


def adjoint_rows(out: str) -> dict[str, str]:
    rows = out.split("adjoint trace\n")[1].split("\n\n")[0].splitlines()
    return {row.split()[0]: row.strip() for row in rows}


def sums(rows: dict[str, str]):
    """(name, the terms side, the relation, the total) of each row with a sum of numbers."""
    for name, row in rows.items():
        found = re.fullmatch(r"\S+ = [^=≈]+ = ([-\d.e+ ]+) ([=≈]) (\S+)", row)
        if found:
            yield name, found.group(1), found.group(2), found.group(3)


def test_a_rounded_sum_that_does_not_add_up_by_hand_is_marked_approximate():
    # It was "v̄2 = v̄5 + v̄3·v3 = -0.528 + 1.32 = 0.791": -0.528 + 1.32 is 0.792.
    code, out, err = run_cli("trace", "x*exp(y)/(x+y)", "--at", "x=2,y=0.5", "--digits", "3")
    assert code == 0, err
    rows = adjoint_rows(out)
    assert rows[f"v{BAR}2"] == f"v{BAR}2 = v{BAR}5 + v{BAR}3·v3 = -0.528 + 1.32 ≈ 0.791"
    assert rows[f"v{BAR}1"] == f"v{BAR}1 = v{BAR}4·v3 + v{BAR}5 = 0.659 - 0.528 ≈ 0.132"
    # the totals are the exact adjoints rounded, and a ≈ row does not check by hand
    assert Decimal("0.791") == rounded(Decimal(DF_DY), 3)
    assert Decimal("0.132") == rounded(Decimal(DF_DX), 3)
    found = list(sums(rows))
    assert len(found) == 2
    for name, side, relation, total in found:
        assert (relation == "=") == checks_by_hand(total, side, 3), (name, side, total)
    assert out.split("adjoint trace\n")[1].count("≈: ") == 1      # said once what ≈ means
    # a sum that adds up by hand keeps its "=": 2 + 2 + 12 is 16
    code, out, _ = run_cli("trace", "x*x + 3*x^2", "--at", "x=2", "--digits", "3")
    assert f"v{BAR}1 = v{BAR}2·v1 + v{BAR}2·v1 + v{BAR}3·(2·v1) = 2 + 2 + 12 = 16" in out
    assert "≈" not in out
    # all digits: the sum worked left to right is the adjoint to the last bit, an "="
    code, out, _ = run_cli("trace", "x*exp(y)/(x+y)", "--at", "x=2,y=0.5")
    assert "≈" not in out
    for name, side, relation, total in sums(adjoint_rows(out)):
        terms = [float(t) for t in hand_sum_terms(side)]
        assert sum(terms) == float(total) and relation == "="     # float64, left to right
    total = float(adjoint_rows(out)[f"v{BAR}2"].split(" = ")[-1])
    assert math.isclose(total, DF_DY, rel_tol=1e-15)
    # JSON carries numbers, each rounded on its own: nothing to mark there
    code, out, _ = run_cli("trace", "x*exp(y)/(x+y)", "--at", "x=2,y=0.5", "--digits", "3",
                           "--format", "json")
    nodes = strict_json(out)["points"][0]["nodes"]
    assert [c["value"] for c in nodes[1]["contributions"]] == [-0.528, 1.32]
    assert nodes[1]["adjoint"] == 0.791 and "≈" not in out


@pytest.mark.parametrize("text, at, digits", [
    ("x/3 + x/3 + x/3", "x=1", "3"),       # 0.333 + 0.333 + 0.333 = 0.999, shown 1
    ("x/3 + x/3 + x/3", "x=1", "1"),       # 0.3 + 0.3 + 0.3 = 0.9, shown 1
    ("x*exp(y)/(x+y)", "x=2,y=0.5", "2"),
    ("x*exp(y)/(x+y)", "x=2,y=0.5", "5"),
    ("sin(x)*x + x^3/7 - exp(x)", "x=1.3", "2"),
])
def test_every_sum_row_says_equal_only_where_it_adds_up_by_hand(text, at, digits):
    code, out, err = run_cli("trace", text, "--at", at, "--digits", digits)
    assert code == 0, err
    found = list(sums(adjoint_rows(out)))
    assert found
    relations = {relation for *_, relation, _ in found}
    for name, side, relation, total in found:
        assert (relation == "=") == checks_by_hand(total, side, int(digits)), (name, side)
    assert ("≈: " in out) == ("≈" in relations)
    assert "≈" in relations


@pytest.mark.parametrize("columns", WIDTHS)
def test_a_folded_approximate_total_keeps_its_mark(columns):
    rows = on_terminal(columns, "trace", "x*exp(y)/(x+y)", "--at", "x=2,y=0.5", "--digits",
                       "3")
    text = "\n".join(rows)
    assert text.count("≈ 0.791") == 1 and text.count("≈ 0.132") == 1
    assert "= ≈" not in text and "0.791 =" not in text
    start = next(i for i, row in enumerate(rows) if row.startswith(f"  v{BAR}2 ="))
    end = next(i for i in range(start + 1, len(rows)) if not rows[i].startswith("     "))
    joined = " ".join(row.strip() for row in rows[start:end])
    assert joined == f"v{BAR}2 = v{BAR}5 + v{BAR}3·v3 = -0.528 + 1.32 ≈ 0.791"


# ----- 9a. plot's legend: your expression folded under itself, at the terminal's width ----

YOURS = ("2*x1*sin(x1) + x1^2*cos(x1) - 2*x1/7*exp(-x1^2/7)*cos(3*x1) "
         "- 3*exp(-x1^2/7)*sin(3*x1)")
F = "sin(x1)*x1^2 + exp(-x1^2/7)*cos(3*x1)"


def may_break_after(text: str, short: float) -> set[int]:
    """Where a line of ``text`` may end: after a space, or after an operator that follows
    an operand, but never inside a name, a number, a call's parentheses or a bracket of at
    most ``short`` characters."""
    closing, opened = {}, []
    for i, c in enumerate(text):
        if c == "(":
            opened.append(i)
        elif c == ")":
            closing[opened.pop()] = i
    allowed, kept, stack = set(), 0, []
    for i, c in enumerate(text):
        if c == "(":
            called = i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")
            stack.append(called or closing[i] + 1 - i <= short)
            kept += stack[-1]
        elif c == ")":
            kept -= stack.pop()
        if kept:
            continue
        if c == " ":
            allowed.add(i + 1)
        elif c in "+-*/^" and i > 0 and (text[i - 1].isalnum() or text[i - 1] in ")."):
            allowed.add(i + 1)
    return allowed


def legend_entry(rows: list[str]) -> list[str]:
    start = next(i for i, row in enumerate(rows) if row.startswith("•• yours: "))
    end = next(i for i in range(start + 1, len(rows)) if rows[i].startswith("●"))
    return rows[start:end]


@pytest.mark.parametrize("columns", WIDTHS)
def test_your_expression_folds_at_the_terminals_width_under_itself(columns):
    # At 40 columns it was folded with continuation lines 6, 4, 4 and 6 spaces in, and
    # cos(3*x1) cut after "cos(3*"; at 80 and 120 it was folded at about 55 columns.
    # Now each line is filled, broken at a space or after an operator, never inside a
    # call or a short bracket such as (2*x1), the later lines under the expression.
    parsed = adcli.parse(YOURS).parsed
    entry = legend_entry(on_terminal(columns, "plot", F, YOURS, "--grid", "x1=-3:3"))
    head = "•• yours: "
    assert len(entry) > 1 and all(row.startswith(" " * len(head)) and
                                  row[len(head)] != " " for row in entry[1:])
    pieces = [entry[0][len(head):], *(row[len(head):] for row in entry[1:])]
    # the lines are the expression, broken only where a line may end
    breaks, at = [], 0
    for piece in pieces[:-1]:
        at = parsed.index(piece, at) + len(piece)
        while at < len(parsed) and parsed[at] == " ":
            at += 1
        breaks.append(at)
    assert "".join(pieces).replace(" ", "") == parsed.replace(" ", "")
    allowed = may_break_after(parsed, (columns - 3) / 3)   # a third of the entry's room
    assert all(b in allowed for b in breaks), (breaks, pieces)
    # and each line is full: the next piece of the expression would not have fitted on it
    for row, b in zip(entry, breaks):
        following = min(a for a in allowed | {len(parsed)} if a > b)
        joined = row + " " * (parsed[b - 1] == " ") + parsed[b:following].rstrip()
        assert cells(joined) > columns, (row, columns)


def test_a_call_wider_than_a_line_is_broken_at_its_operators_never_inside_a_name():
    from adcli.plotting import _folded
    from adcli.tables import cell_len

    names = [f"alpha{i}*beta{i}" for i in range(8)]
    text = f"yours: exp({' + '.join(names)})*cos(3*x)"
    lines = _folded(text, 30, cell_len, " " * 7)
    assert all(cell_len(line) <= 30 for line in lines) and len(lines) > 2
    assert all(line.startswith(" " * 7) and line[7] != " " for line in lines[1:])
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    words = re.findall(r"\w+", text)
    for line in lines:            # each line ends after a whole name, at an operator or space
        assert re.findall(r"\w+", line)[-1] in words and line[-1] in "+*)", line
    assert any(line.strip().endswith("cos(3*x)") for line in lines)   # a short call whole


# ----- 9b. trace --limit: the "left out" markers in one column, "--limit N" whole ----------

LONG = "x+x+x+log(x-5)" + "+x" * 20


def left_out(rows: list[str]) -> list[list[str]]:
    """Each "⋮" marker with the lines it is folded into."""
    found = []
    for i, row in enumerate(rows):
        if "⋮" in row:
            found.append([row])
            for more in rows[i + 1:]:
                if not more.startswith("    ") or more.startswith("    ⋮"):
                    break
                found[-1].append(more)
    return found


def test_the_left_out_markers_line_up_and_keep_the_limit_whole():
    # At 40 columns it was "   ⋮ 1 row, v4, ..." then " ⋮ 18 row(s), v6 … v23, left out by"
    # and "   --limit 6" on the next line.
    for columns in WIDTHS:
        markers = left_out(on_terminal(columns, "trace", LONG, "--at", "x=2", "--limit", "6"))
        assert len(markers) == 3, markers      # v4, v6 … v23 and v̄23 … v̄4
        for lines in markers:
            assert lines[0].startswith("  ⋮ ") and lines[0][4] != " ", lines
            assert all(row.startswith("    ") and row[4] != " " for row in lines[1:]), lines
            assert lines[-1].endswith(" --limit 6") or lines[-1] == "    --limit 6", lines
        said = [" ".join(" ".join(lines).split()) for lines in markers]
        assert said == ["⋮ 1 row, v4, left out by --limit 6",
                        "⋮ 18 row(s), v6 … v23, left out by --limit 6",
                        f"⋮ 20 row(s), v{BAR}23 … v{BAR}4, left out by --limit 6"], columns
        assert [len(lines) for lines in markers] == ([1, 2, 2] if columns == 40 else [1, 1, 1])


# ----- 9c. graph's tree: a --let step used twice is not called a variable -----------------

def footer(out: str) -> list[str]:
    return out.split("\n\n", 1)[1].splitlines()


SHARED = [
    ("F^2 + F", ["F=sin(x)"], "x=1",
     "each --let name used more than once (F is v2) adds up what its uses hand back "
     "(+= above):",
     # sin(1)^2 + sin(1): F's uses hand back 1 (from +) and 2 sin(1) (from ^2)
     [f"v{BAR}2 = 1.0 + {2 * math.sin(1.0)!r} = {1 + 2 * math.sin(1.0)!r}"]),
    ("F*F + x*x", ["F=sin(x)"], "x=1",
     "each variable or --let name used more than once (F is v2) adds up what its uses "
     "hand back (+= above):", None),
    ("G + F", ["G=F^2", "F=sin(x)"], "x=1",
     "each --let name used more than once (F is v2) adds up what its uses hand back "
     "(+= above):", None),
    ("G*G + F", ["G=F^2", "F=sin(x)"], "x=1",
     "each --let name used more than once (F is v2 and G is v3) adds up what its uses hand "
     "back (+= above):", None),
    ("x*x + 3*x^2", [], "x=2",
     "each variable used more than once adds up what its uses hand back (+= above):",
     [f"v{BAR}1 = 2.0 + 2.0 + 12.0 = 16.0"]),
]


def test_the_tree_footer_names_what_is_shared():
    # "F^2 + F" with --let F=sin(x) said "each variable used more than once" of v2 = sin(v1)
    for text, lets, at, title, sums in SHARED:
        args = [a for let in lets for a in ("--let", let)]
        code, out, err = run_cli("graph", text, *args, "--at", at, "--format", "tree")
        assert code == 0, err
        lines = footer(out)
        assert lines[0] == title
        if sums:
            assert [line.strip() for line in lines[1:]] == sums


def test_the_tree_footer_marks_a_sum_that_does_not_add_up_by_hand():
    code, out, err = run_cli("graph", "x*exp(y)/(x+y)", "--at", "x=2,y=0.5", "--digits", "3",
                             "--format", "tree")
    assert code == 0, err
    lines = [line.strip() for line in footer(out)]
    assert f"v{BAR}1 = 0.659 - 0.528 ≈ 0.132" in lines
    assert f"v{BAR}2 = -0.528 + 1.32 ≈ 0.791" in lines
    assert any(line.startswith("≈: ") or "(≈: " in line for line in lines)


# ----- the tree draws a --let step's inputs once ------------------------------------------

def test_a_let_step_used_twice_has_its_inputs_drawn_once():
    # "F*F + x*x" with F = sin(x) drew sin(v1) and its v1 under both uses of F: four
    # "v̄1 +=" above a sum of three terms, and a chain of --let doublings grew as 2^n.
    code, out, err = run_cli("graph", "F*F + x*x", "--let", "F=sin(x)", "--at", "x=1",
                             "--format", "tree")
    assert code == 0, err
    tree, sums = out.split("\n\n", 1)
    shares = re.findall(rf"v{BAR}1 \+= (\S+)", tree)
    total = next(line.strip() for line in sums.splitlines()
                 if line.strip().startswith(f"v{BAR}1 = "))
    # x's uses: sin(x) hands back cos(1) (times F's adjoint 2 sin(1)), x*x 1 and 1
    assert sorted(map(float, shares)) == sorted([1.0, 1.0, 2 * math.sin(1) * math.cos(1)])
    assert total.count("+") == len(shares) - 1
    rows = tree.splitlines()
    uses = [i for i, row in enumerate(rows) if "v2 = sin(v1)" in row]
    assert len(uses) == 2 and "v1 = x" in rows[uses[0] + 1]
    assert "drawn above" in rows[uses[1]] and "v1 = x" not in rows[uses[1] + 1]
    args = ["--let", "A0=sin(x)"]
    for i in range(1, 19):
        args += ["--let", f"A{i}=A{i - 1}*A{i - 1}"]
    code, out, err = run_cli("graph", "A18", *args, "--at", "x=1", "--format", "tree",
                             timeout=30)
    assert code == 0, err
    assert len(out.splitlines()) < 100
